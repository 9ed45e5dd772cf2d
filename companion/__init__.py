"""The application: Flask + Socket.IO server, sessions and seats, persistence, wiring
hardware observations into engine actions, and the `companion` command line."""
