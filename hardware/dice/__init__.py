"""Serial dice reader: protocol, reader thread, emulator, discovery (docs/dice-protocol.md)."""
