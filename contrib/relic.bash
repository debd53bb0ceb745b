# bash completion for relic (installed by make install into
# share/bash-completion/completions/relic). The command list is the table of
# `relic --help` (tests/json_cli_test.sh checks that the two agree).
_relic()
{
    local cur prev cmd
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    local commands="info check dump convert ls extract pack get set diff bake path encode pack-sounds pack-textures foley hash mutate help"
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    cmd=${COMP_WORDS[1]}
    case $prev in
        -C|-o) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --to) COMPREPLY=($(compgen -W "json obj svg png wav wok pwk dwk trn trx gff are git ifo utc mod erf tpm tri trr wtd cau tpa grf scn pid spz swp" -- "$cur")); return ;;
        --game) COMPREPLY=($(compgen -W "nwn1 nwn2 kotor1 kotor2 auto" -- "$cur")); return ;;
        --encoding) COMPREPLY=($(compgen -W "cp1252 utf8 auto" -- "$cur")); return ;;
        -j|-n|--seed|--velocity) return ;;
    esac
    local opts="--help"
    case $cmd in
        info) opts="-r --json --help" ;;
        check) opts="-r -j --json --strict --game -q --help" ;;
        dump) opts="-o --to --encoding --help" ;;
        convert) opts="--to --adpcm --captions --relief --extent --max-height --threshold --max-grid --encoding --terrain --help" ;;
        ls|hash|diff|path) opts="--json --help" ;;
        extract) opts="-C --names --swp --mips --help" ;;
        pack) opts="--nwn2 --help" ;;
        mutate) opts="-n -o --seed --invalid --help" ;;
        help) COMPREPLY=($(compgen -W "$commands" -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _relic relic
