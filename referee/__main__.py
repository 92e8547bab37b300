"""The `referee` command's entry point, and `python -m referee`."""

from referee.cli import main

if __name__ == "__main__":
    main()
