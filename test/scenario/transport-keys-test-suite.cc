/*
 * iwarp-scenario-transport-keys: the declarations of the `transport` keys (helper/scenario/transport-keys.cc),
 * which the reader, the schema, the resolution, the runner, summary.json and the docs' table all walk. Each
 * key is declared whole; the schema takes exactly the declared keys; the defaults that the docs call ns-3's
 * own are ns-3's own. What each key does in a run is iwarp-scenario-transport's (read back from live sockets).
 */
#include "helper/scenario/scenario-schema.h"
#include "helper/scenario/transport-keys.h"

#include "ns3/tcp-socket.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

class DeclaredWholeTestCase : public TestCase
{
  public:
    DeclaredWholeTestCase()
        : TestCase("every transport key is declared whole: docs' columns, reader, default, resolution, record, apply")
    {
    }

  private:
    void DoRun() override
    {
        std::set<std::string> seen;
        const TransportSettings defaults = DefaultTransport();
        for (const TransportKey& k : TransportKeys())
        {
            NS_TEST_EXPECT_MSG_EQ(seen.insert(k.key).second, true, k.key << " declared once");
            const std::string section = k.Section();
            NS_TEST_EXPECT_MSG_EQ((section == "tcp" || section == "sctp" || section == "buffers"), true,
                                  k.key << ": a section of transport");
            NS_TEST_EXPECT_MSG_EQ(k.value.empty(), false, k.key << ": what it takes, for the docs");
            NS_TEST_EXPECT_MSG_EQ((k.source.empty() && k.defaultText.empty()), false,
                                  k.key << ": a source for its default, or a default that names another key");
            NS_TEST_EXPECT_MSG_EQ(bool(k.read), true, k.key << ": a reader");
            if (section == "buffers")
            {
                // Shared fallbacks: the tcp and sctp buffer keys take them; nothing of their own to set.
                NS_TEST_EXPECT_MSG_EQ((k.take || k.setDefault || k.record || k.apply), false,
                                      k.key << ": no setting of its own");
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ((k.take && k.setDefault && k.record && k.text && k.apply), true,
                                  k.key << ": default, resolution, summary.json field, text and socket setting");
            NS_TEST_EXPECT_MSG_EQ((k.attributes.empty() && k.key != "tcp.hystart"), false,
                                  k.key << ": the socket attributes it owns");
            nlohmann::json fields = nlohmann::json::object();
            k.record(defaults, fields);
            NS_TEST_EXPECT_MSG_GT(fields.size(), 0u, k.key << ": a summary.json field");
        }
        NS_TEST_EXPECT_MSG_EQ(seen.count("tcp.data-retries"), 1u, "the key issue 30's closing note adds");
    }
};

class SchemaTestCase : public TestCase
{
  public:
    SchemaTestCase()
        : TestCase("the schema of transport's sections holds exactly the declared keys")
    {
    }

  private:
    void DoRun() override
    {
        const scenario::SchemaNode& transport = *scenario::ScenarioSchema().fields.at("transport");
        for (const char* section : {"tcp", "sctp", "buffers"})
        {
            std::set<std::string> declared;
            for (const TransportKey& k : TransportKeys())
            {
                if (k.Section() == section)
                {
                    declared.insert(k.Name());
                }
            }
            std::set<std::string> schema;
            for (const auto& [name, node] : transport.fields.at(section)->fields)
            {
                schema.insert(name);
            }
            NS_TEST_EXPECT_MSG_EQ((schema == declared), true, "transport." << section);
            NS_TEST_EXPECT_MSG_EQ(declared.empty(), false, "transport." << section << " has keys");
        }
        // The sections themselves come from the declarations: the schema has those and `hosts`, no other.
        const std::vector<std::string> sections = TransportSections();
        NS_TEST_EXPECT_MSG_EQ((sections == std::vector<std::string>{"tcp", "sctp", "buffers"}), true,
                              "the sections, in the order the docs list them");
        std::set<std::string> schemaSections;
        for (const auto& [name, node] : transport.fields)
        {
            schemaSections.insert(name);
        }
        std::set<std::string> expected(sections.begin(), sections.end());
        expected.insert("hosts");
        NS_TEST_EXPECT_MSG_EQ((schemaSections == expected), true, "transport's schema: the sections and hosts");
    }
};

class NsDefaultsTestCase : public TestCase
{
  public:
    NsDefaultsTestCase()
        : TestCase("the defaults the transport docs call ns-3's own are TcpSocket's initial values")
    {
    }

  private:
    void DoRun() override
    {
        const TransportSettings d = DefaultTransport();
        const TypeId tid = TcpSocket::GetTypeId();
        const std::pair<const char*, uint32_t> claims[] = {{"DataRetries", d.tcp.dataRetries},
                                                           {"DelAckCount", d.tcp.delayedAckCount},
                                                           {"InitialCwnd", d.tcp.initialCwnd}};
        for (const auto& [attribute, ours] : claims)
        {
            TypeId::AttributeInformation info;
            NS_TEST_ASSERT_MSG_EQ(tid.LookupAttributeByName(attribute, &info), true, attribute);
            const auto initial = DynamicCast<const UintegerValue>(info.initialValue);
            NS_TEST_ASSERT_MSG_NE(initial, nullptr, attribute);
            NS_TEST_EXPECT_MSG_EQ(uint32_t(initial->Get()), ours, attribute << ": the default is ns-3's");
        }
    }
};

class TransportKeysTestSuite : public TestSuite
{
  public:
    TransportKeysTestSuite()
        : TestSuite("iwarp-scenario-transport-keys", UNIT)
    {
        AddTestCase(new DeclaredWholeTestCase, TestCase::QUICK);
        AddTestCase(new SchemaTestCase, TestCase::QUICK);
        AddTestCase(new NsDefaultsTestCase, TestCase::QUICK);
    }
};

TransportKeysTestSuite g_transportKeysTestSuite;

} // namespace
} // namespace ns3
