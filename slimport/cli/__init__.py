from slimport.cli.entry import main

__all__ = ["main"]
