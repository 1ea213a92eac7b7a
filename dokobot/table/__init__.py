"""The table service: seats, turns, AI players, timeouts and persistence."""
