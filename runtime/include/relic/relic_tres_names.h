/* relic_tres_names.h — the names Trespasser derives from its string hash
 * (Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp): instance handles and the SCN section names
 * printed from them, texture IDs and the 64-bit PID keys of mip levels.
 * The hash itself (CRC-32) and the sound-ID form are relic_tres_hash and
 * relic_tres_sound_hash (relic_audio.h, runtime/formats/tres/tres_hash.c). */
#ifndef RELIC_TRES_NAMES_H
#define RELIC_TRES_NAMES_H

#include "relic.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Default diffuse reflectance of a material (1.0), the value folded into
 *  a texture ID when the object does not set one (Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp). */
#define RELIC_TRES_DEFAULT_DIFFUSE 1.0f

/** Instance handle of an object name: CRC-32 of the raw bytes, case kept
 *  (Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp, Instance.cpp 2145–2152): "Player" -> 0x9FB57F53. */
uint32_t relic_tres_object_hash(const char *name, size_t n);

/** The SCN/savegame section name of a handle: upper-case hex without
 *  leading zeros ("%X"), written to out (at least 9 bytes). Returns its
 *  length. */
size_t relic_tres_section_name(uint32_t handle, char out[9]);

/** 1 and the handle in *handle when name (n bytes) is a section name as
 *  relic_tres_section_name writes it (1-8 upper-case hex digits, no
 *  leading zero); else 0. */
int relic_tres_parse_section_name(const char *name, size_t n, uint32_t *handle);

/** Texture ID (low 32 bits of a PID key, Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp, LoadTexture.cpp
 *  490–560): CRC-32 of texture path followed by the bump-map path (bump
 *  may be NULL or empty), each '\\' as '/' and ASCII A-Z lower-cased,
 *  continued with the 4 bytes of diffuse as a little-endian float32. */
uint32_t relic_tres_texture_id(const char *texture, size_t tn, const char *bump, size_t bn, float diffuse);

/** The 12-bit fold of a palette hash used in mip-level keys: p ^= p >> 15,
 *  keep 16 bits, p ^= p >> 8, keep 12 bits (Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp, Texture.cpp
 *  1029–1062). */
uint32_t relic_tres_palette_fold(uint32_t palette_hash);

/** The PID key of a mip level: bits 0-31 texture ID, 32-41 width, 42-51
 *  height (both masked to 10 bits), 52-63 relic_tres_palette_fold. The
 *  top level of a texture uses the texture ID alone (upper bits 0). */
uint64_t relic_tres_mip_key(uint32_t texture_id, uint32_t width, uint32_t height, uint32_t palette_hash);

#ifdef __cplusplus
}
#endif
#endif
