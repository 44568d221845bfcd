/*
 * Long cases run a shorter variant under the sanitizers: `make test-asan` builds the suites with
 * IWARP_SANITIZED defined (CMakeLists.txt, IWARP_SANITIZE), where the same simulation runs ten to
 * twenty times slower; the release build (`make test`) runs the full variant. Each use keeps every
 * assertion and says in its test what the shorter variant still covers.
 */
#ifndef IWARP_TEST_SANITIZER_VARIANT_H
#define IWARP_TEST_SANITIZER_VARIANT_H

namespace ns3
{

#ifdef IWARP_SANITIZED
constexpr bool kSanitizedBuild = true;
#else
constexpr bool kSanitizedBuild = false;
#endif

/** `full` in a release build, `shorter` under the sanitizers. */
template <typename T>
constexpr T
FullOrSanitized(T full, T shorter)
{
    return kSanitizedBuild ? shorter : full;
}

} // namespace ns3

#endif // IWARP_TEST_SANITIZER_VARIANT_H
