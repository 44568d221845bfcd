# One line per ns-3 TestSuite (the name passed to the TestSuite constructor); each becomes one CTest entry.
# Included from the top-level CMakeLists.txt.
iwarp_add_suite(iwarp-crc32c)
iwarp_add_suite(iwarp-ddp-conformance)
