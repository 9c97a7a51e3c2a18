"""HTTP tests of Word Jam and Muzicando on the engine service (the folder is a package so that its
conftest never shadows the root one)."""
