"""``python -m afterhack.cli``."""

from afterhack.cli.main import main

if __name__ == "__main__":
    main()
