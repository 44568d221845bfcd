/*
 * The workload keys that several kinds share, declared once with their facts and their readers: a kind's
 * file lists the ones it takes (workload-kind.h).  Kind-specific keys are declared in the kind's own file,
 * with Scalar() around a section-key builder where one fits.
 */
/**
 * \file
 * \ingroup iwarp-helper-scenario
 */
#ifndef IWARP_WORKLOAD_COMMON_KEYS_H
#define IWARP_WORKLOAD_COMMON_KEYS_H

#include "helper/scenario/section-keys.h"
#include "helper/scenario/workloads/workload-kind.h"

#include <cstdint>

namespace ns3
{
namespace workloadkeys
{

/** The facts of a key the workload cannot do without. */
scenario::KeyInfo RequiredFacts(scenario::ValueKind kind, std::string type, std::string meaning);

/** A scalar workload key from a section key: its facts, its range and its reader. */
WorkloadKey Scalar(scenario::SectionKey<WorkloadConfig> key);

WorkloadKey Start();
/** The workloads to wait for: names or indices, resolved once every workload is read (ResolveAfter). */
WorkloadKey After();
WorkloadKey From();
/** The list of distinct hosts that send, one flow each (kinds with WorkloadKindInfo::manySenders). */
WorkloadKey Senders();
/** A host group's hosts (WorkloadKindInfo::hostGroup): at least two, each once; `meaning` says what they do. */
WorkloadKey Hosts(std::string meaning);
/** The other end; a kind whose `to` is not a responder says what it is. */
WorkloadKey To(std::string meaning = "the responder (server)");
/** One of `ops`, the first the default: pass the kind's WorkloadKindInfo::ops. */
WorkloadKey Op(const std::vector<RdmaOp>& ops);
/**
 * Octets per message, `min`..2^32-1; `why` says why a kind's smallest message is above one octet, `meaning`
 * what the size is of where it is not one message's.
 */
WorkloadKey Size(uint64_t min = 1, std::string why = "", std::string meaning = "octets per message; not with `sizes`");
/** A list of message sizes, each as Size(min, why) takes one. */
WorkloadKey Sizes(uint64_t min = 1, std::string why = "");
/** Messages (round trips for ping-pongs), 1..`max`, with count × size within 64 bits. */
WorkloadKey Count(uint64_t max = UINT64_MAX);
/** The most round trips a ping-pong kind counts: its applications' `Count` attributes are 32-bit. */
constexpr uint64_t kMaxRoundTrips = UINT32_MAX;
WorkloadKey Duration();
WorkloadKey Outstanding();
WorkloadKey LlpKey();
WorkloadKey Payload();

/** The keys of an RDMA kind that streams from one initiator: start..payload. */
std::vector<WorkloadKey> RdmaStreamKeys(const std::vector<RdmaOp>& ops);

} // namespace workloadkeys
} // namespace ns3

#endif // IWARP_WORKLOAD_COMMON_KEYS_H
