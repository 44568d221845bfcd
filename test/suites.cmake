# One line per ns-3 TestSuite (the name passed to the TestSuite constructor); each becomes one CTest entry.
# Included from the top-level CMakeLists.txt.
iwarp_add_suite(iwarp-crc32c)
iwarp_add_suite(iwarp-ddp-conformance)
iwarp_add_suite(iwarp-rdmap-conformance)
iwarp_add_suite(iwarp-rdmap-conformance-more)
iwarp_add_suite(iwarp-headers)
iwarp_add_suite(iwarp-memory)
iwarp_add_suite(iwarp-ddp-unit)
iwarp_add_suite(iwarp-ddp-conformance-errors)
iwarp_add_suite(iwarp-mpa-framing)
iwarp_add_suite(iwarp-mpa-connection)
iwarp_add_suite(iwarp-ddp-conformance-order)
