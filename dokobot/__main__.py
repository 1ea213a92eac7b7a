import sys

from dokobot.cli import main

sys.exit(main())
