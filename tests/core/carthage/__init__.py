"""Tests for core/carthage: geometry, content, and (later) the rules."""
