//! Legacy HTTP+SSE and detection.
