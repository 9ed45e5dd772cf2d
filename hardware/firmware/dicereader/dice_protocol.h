/*
 * Dice-reader protocol framing and CRC in plain C (docs/dice-protocol.md).
 *
 * Used by the Arduino sketch (dicereader.ino) and unit-tested on the host with gcc against
 * the same test vectors as the Python parser (tests/hardware/dice/vectors.json).
 * No heap, no stdio: safe for an 8-bit AVR with 2 KB of RAM.
 */
#ifndef DICE_PROTOCOL_H
#define DICE_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DP_MAX_FRAME 120                 /* bytes from '$' to '\n' inclusive */
#define DP_MAX_CONTENT (DP_MAX_FRAME - 2) /* bytes between '$' and '\n' */
#define DP_MAX_BODY (DP_MAX_FRAME - 7)    /* '$' BODY '*' 4 hex '\n' */

/* CRC-16/XMODEM: poly 0x1021, init 0, no reflection; dp_crc16("123456789") == 0x31C3. */
uint16_t dp_crc16(const uint8_t *data, size_t len);

/* Writes "$BODY*CRC\n" and a terminating NUL into out. Returns the frame length without
 * the NUL, or 0 if the body is empty, too long, not printable ASCII, holds '$' or '*',
 * or out (outsize bytes) is too small. */
size_t dp_encode(const char *body, char *out, size_t outsize);

/* Incremental framer: feed it one byte at a time. */
enum dp_result {
    DP_NONE = 0,    /* nothing complete yet */
    DP_FRAME = 1,   /* a frame whose CRC checked: body/body_len are set */
    DP_CRC = 2,     /* a well-formed frame whose CRC did not match: dropped */
    DP_GARBAGE = 3  /* bytes outside frames, a frame cut by '$', overlong or malformed */
};

typedef struct {
    uint8_t state;   /* idle, in frame, skipping an overlong frame */
    uint8_t junk;    /* the current run outside frames holds something besides CR/LF */
    uint8_t len;     /* bytes of content collected after '$' */
    char buf[DP_MAX_CONTENT + 1];
} dp_parser;

void dp_parser_init(dp_parser *p);

/* Feed one byte. On DP_FRAME, *body points at the NUL-terminated BODY inside the parser
 * (valid until the next call) and *body_len is its length. */
enum dp_result dp_feed(dp_parser *p, uint8_t byte, const char **body, size_t *body_len);

#ifdef __cplusplus
}
#endif

#endif
