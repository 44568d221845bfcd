/*
 * Test runner for the iwarp-ns3 test suites.  Every TestSuite in test/ (*.cc, one folder per layer) is a static
 * object linked into this executable and registers itself with ns-3's TestRunner; CTest runs one suite per entry
 * with --suite=NAME (see iwarp_add_suite() in CMakeLists.txt and the list in test/suites.cmake). The suites run at
 * the module's time resolution, picoseconds (common/time-resolution.h), as every program of the repository.
 */
#include "common/time-resolution.h"

#include "ns3/test.h"

int
main(int argc, char* argv[])
{
    ns3::iwarp::UseModuleTimeResolution(); // first: ns-3 allows it before any run only
    return ns3::TestRunner::Run(argc, argv);
}
