"""``python -m slimport.verify PORTED_DIR ...``; see slimport/verify/cli.py."""
import sys

from slimport.verify import cli

sys.exit(cli.main())
