"""``judge demo``: a seven-player game played by mail against a throw-away judge."""
