/* The few Arduino APIs the sketch uses, so the host can compile it with g++ (a syntax and
 * type check only: tests/hardware/test_dice_firmware.py). Not used on a real board. */
#include <stdint.h>
#include <stdlib.h>
#define INPUT_PULLUP 2
#define LOW 0
struct StubSerial {
    void begin(unsigned long) {}
    int available() { return 0; }
    int read() { return -1; }
    size_t write(const uint8_t *, size_t n) { return n; }
};
static StubSerial Serial;
static inline void pinMode(uint8_t, uint8_t) {}
static inline int digitalRead(uint8_t) { return 1; }
static inline int analogRead(uint8_t) { return 0; }
static inline long random(long low, long high) { return low + rand() % (high - low); }
static inline void randomSeed(unsigned long s) { srand((unsigned)s); }
static inline unsigned long millis() { return 0; }
