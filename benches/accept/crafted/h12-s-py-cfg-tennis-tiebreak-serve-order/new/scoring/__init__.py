"""Chair-umpire scoring for singles matches."""
