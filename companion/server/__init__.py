"""The server's plumbing: settings, security, request limits, the Socket.IO transport and its
JSON codec, languages, memory and thread names, the network and systemd helpers, the doctor.
"""
