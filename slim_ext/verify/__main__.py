"""``python -m slim_ext.verify PORTED_DIR ...``; see slim_ext/verify/cli.py."""
import sys

from slim_ext.verify import cli

sys.exit(cli.main())
