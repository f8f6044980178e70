"""`python -m services.cli`: the `empyrean` command without its console script."""

from services.cli import main

main()
