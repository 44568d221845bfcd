/*
 * What the ULP (the RNIC's queue pairs, or a test) hands RDMAP and gets back: work
 * requests, completions with status codes, and stream events.
 */
/**
 * \file
 * \ingroup iwarp-rdmap
 */
#ifndef IWARP_RDMAP_TYPES_H
#define IWARP_RDMAP_TYPES_H

#include "common/iwarp-constants.h"
#include "common/verbs-types.h"
#include "ddp/ddp-types.h"
#include "rdmap/rdmap-header.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

/** RDMAP's work requests complete as verbs work completions (model/common/verbs-types.h). */
using RdmapWrType = WrOpcode;
using RdmapCompletion = WorkCompletion;

/** RDMAP-089: the Remote Protection code for a Read Request source that failed `c`. */
iwarp::RdmapCode ReadSourceError(TagCheck c);

/** A send-queue work request (RDMAP §5). */
struct RdmapWorkRequest
{
    uint64_t id{0};
    RdmapWrType type{RdmapWrType::Send};
    /** Send types and Write: the local data (a packet, a buffer window, ...). */
    Ptr<DdpPayloadSource> source;
    /** SendInv / SendSEInv: the STag the peer is to invalidate (RDMAP-045). */
    uint32_t invalidateStag{0};
    /** Write: the sink STag and TO. Read: the data source (SrcSTag, SrcTO). */
    uint32_t remoteStag{0};
    uint64_t remoteTo{0};
    /** Read: the local sink (SinkSTag, SinkTO) and RDMARDSZ. */
    uint32_t localStag{0};
    uint64_t localTo{0};
    uint32_t readLength{0};
};

enum class RdmapEvent : uint8_t
{
    Established,
    TerminateSent,     ///< we detected an error and sent a Terminate (cause set)
    TerminateReceived, ///< the peer's Terminate was delivered (terminate set, RDMAP-051)
    HalfClosed,
    Closed,
    FatalError,        ///< the LLP was lost or failed
};

const char* ToString(RdmapEvent e);

struct RdmapEventInfo
{
    RdmapEvent type{RdmapEvent::Established};
    iwarp::ErrorCause cause;
    RdmapTerminateHeader terminate;
};

} // namespace ns3

#endif // IWARP_RDMAP_TYPES_H
