"""Metrics: each is per-segment additive statistics (``extract``) plus a pure score function (``compute``)."""
