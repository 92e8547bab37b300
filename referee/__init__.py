"""referee: replays, checks and draws board and card games played by correspondence."""

__version__ = "0.1.0"
