-- iwarp-ns3: a Wireshark/tshark Lua dissector for DDP carried over SCTP (RFC 5043).
--
-- RFC 5043 puts every DDP message of an association into an SCTP DATA chunk whose Payload Protocol
-- Identifier says which of two kinds it is:
--   PPID 16  DDP Segment chunk:           DDP-SSN (16 bits), then one DDP segment (DDP + RDMAP headers,
--                                         payload), which we hand on to Wireshark's own iWARP decoder
--                                         (the dissector named "iwarp_ddp_rdmap");
--   PPID 17  DDP Stream Session Control:  DDP-SSN (16 bits), Function Code (16 bits: 1 Initiate, 2 Accept,
--                                         3 Reject, 4 Terminate), then the Private Data (at most 512 octets;
--                                         none in a Terminate), whose length is what the chunk has left.
-- Field widths and rules as in the project's requirement list (SCTP-015 .. SCTP-021, ambiguity A23).
--
-- Installed by `cmake --install` into Wireshark's global Lua plugin folder, where Wireshark and tshark
-- load it by themselves; by hand:
--   tshark -X lua_script:ddp-over-sctp.lua --disable-heuristic rpcrdma_iwarp -r trace.pcap
-- (RPC-over-RDMA's heuristic would otherwise claim short Sends.)

-- Installed, Wireshark loads this file from its global plugin folder by itself; a second copy given with
-- -X lua_script: would register the same protocol and field names again, which Wireshark refuses with a Lua
-- error. So the first copy loaded wins and any later one does nothing.
if rawget(_G, "iwarp_ns3_ddp_over_sctp_loaded") then
  return
end
iwarp_ns3_ddp_over_sctp_loaded = true

local PPID_SEGMENT = 16
local PPID_CONTROL = 17
local MAX_PRIVATE_DATA = 512
local FUNCTION_NAMES = {
  [1] = "Session Initiate",
  [2] = "Session Accept",
  [3] = "Session Reject",
  [4] = "Session Terminate",
}
local TERMINATE = 4

local iwarp = Dissector.get("iwarp_ddp_rdmap")

-- PPID 16 ------------------------------------------------------------------------------------------------
local segment_proto = Proto("ddp_sctp", "DDP Segment chunk (SCTP adaptation, RFC 5043)")
local seg_ssn = ProtoField.uint16("ddp_sctp.ssn", "DDP-SSN", base.DEC)
segment_proto.fields = { seg_ssn }
local seg_short = ProtoExpert.new("ddp_sctp.short", "DDP Segment chunk without a whole DDP-SSN",
                                  expert.group.MALFORMED, expert.severity.ERROR)
segment_proto.experts = { seg_short }

function segment_proto.dissector(buffer, pinfo, tree)
  local length = buffer:len()
  local item = tree:add(segment_proto, buffer(0, math.min(length, 2)))
  if length < 2 then
    item:add_proto_expert_info(seg_short)
    return length
  end
  item:add(seg_ssn, buffer(0, 2))
  -- The DDP segment proper starts after the DDP-SSN: Wireshark's iWARP dissector decodes DDP and RDMAP
  -- (and sets the protocol and info columns) from there.
  iwarp:call(buffer(2):tvb(), pinfo, tree)
  return length
end

-- PPID 17 ------------------------------------------------------------------------------------------------
local control_proto = Proto("ddp_sctp_ctl", "DDP Stream Session Control (SCTP adaptation, RFC 5043)")
local ctl_ssn = ProtoField.uint16("ddp_sctp_ctl.ssn", "DDP-SSN", base.DEC)
local ctl_function = ProtoField.uint16("ddp_sctp_ctl.function", "Function Code", base.HEX, FUNCTION_NAMES)
local ctl_pd_length = ProtoField.uint16("ddp_sctp_ctl.private_data_len", "Private Data length", base.DEC)
local ctl_pd = ProtoField.bytes("ddp_sctp_ctl.private_data", "Private Data")
control_proto.fields = { ctl_ssn, ctl_function, ctl_pd_length, ctl_pd }

local ctl_short = ProtoExpert.new("ddp_sctp_ctl.short",
                                  "Session control message shorter than DDP-SSN + Function Code (4 octets)",
                                  expert.group.MALFORMED, expert.severity.ERROR)
local ctl_unknown = ProtoExpert.new("ddp_sctp_ctl.unknown_function", "Function Code is none of 1 .. 4",
                                    expert.group.MALFORMED, expert.severity.WARN)
local ctl_pd_too_long = ProtoExpert.new("ddp_sctp_ctl.private_data_too_long",
                                        "Private Data longer than 512 octets",
                                        expert.group.PROTOCOL, expert.severity.ERROR)
local ctl_terminate_pd = ProtoExpert.new("ddp_sctp_ctl.terminate_with_private_data",
                                         "a Session Terminate must not carry Private Data",
                                         expert.group.PROTOCOL, expert.severity.ERROR)
control_proto.experts = { ctl_short, ctl_unknown, ctl_pd_too_long, ctl_terminate_pd }

function control_proto.dissector(buffer, pinfo, tree)
  local length = buffer:len()
  pinfo.cols.protocol = "DDP/SCTP"
  local item = tree:add(control_proto, buffer())
  if length < 4 then
    item:add_proto_expert_info(ctl_short)
    pinfo.cols.info:set("DDP Session control (truncated)")
    return length
  end
  item:add(ctl_ssn, buffer(0, 2))
  local code = buffer(2, 2):uint()
  local code_item = item:add(ctl_function, buffer(2, 2))
  local name = FUNCTION_NAMES[code]
  if name == nil then
    code_item:add_proto_expert_info(ctl_unknown)
    name = string.format("function 0x%04x", code)
  end
  local pd_length = length - 4
  item:add(ctl_pd_length, pd_length):set_generated()
  if pd_length > 0 then
    item:add(ctl_pd, buffer(4, pd_length))
  end
  if pd_length > MAX_PRIVATE_DATA then
    item:add_proto_expert_info(ctl_pd_too_long)
  end
  if code == TERMINATE and pd_length > 0 then
    item:add_proto_expert_info(ctl_terminate_pd)
  end
  pinfo.cols.info:set(string.format("DDP %s, DDP-SSN %d, %d octets of Private Data", name,
                                    buffer(0, 2):uint(), pd_length))
  return length
end

local by_ppid = DissectorTable.get("sctp.ppi")
by_ppid:add(PPID_SEGMENT, segment_proto)
by_ppid:add(PPID_CONTROL, control_proto)
