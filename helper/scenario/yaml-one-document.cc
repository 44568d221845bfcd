#include "helper/scenario/yaml-one-document.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <sstream>

namespace ns3
{
namespace scenario
{

namespace
{

/** Notes whether a document held anything but a null, and where it started. */
class DocumentProbe : public YAML::EventHandler
{
  public:
    bool content{false};
    YAML::Mark start{YAML::Mark::null_mark()};

    void OnDocumentStart(const YAML::Mark& mark) override { start = mark; }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { Content(m); }
    void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { Content(m); }
    void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override
    {
        Content(m);
    }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override
    {
        Content(m);
    }
    void OnMapEnd() override {}

  private:
    void Content(const YAML::Mark& m)
    {
        if (!content)
        {
            content = true;
            start = m;
        }
    }
};

} // namespace

YAML::Node
LoadOneYamlDocument(const std::string& text)
{
    // YAML::Load reads one document and stops: it cannot loop.
    YAML::Node root = YAML::Load(text);
    // Then the documents after it, with a bound on the parser's calls: a well-formed stream has at
    // most an empty document after a trailing '---' before it ends.
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentProbe first;
    if (!parser.HandleNextDocument(first))
    {
        return root; // an empty stream
    }
    for (int extra = 0; extra < 2; ++extra)
    {
        DocumentProbe next;
        if (!parser.HandleNextDocument(next))
        {
            return root;
        }
        if (next.content)
        {
            throw YAML::ParserException(next.start, "a second YAML document (after '---'); a scenario file holds one");
        }
        if (extra == 1)
        {
            // Two empty documents in a row without an end: the yaml-cpp 0.7 defect, not a file
            // anyone wrote. Refuse it where the parser stands rather than loop.
            throw YAML::ParserException(next.start.is_null() ? first.start : next.start,
                                        "malformed YAML: the parser makes no progress here (check brackets and "
                                        "indentation)");
        }
    }
    return root;
}

} // namespace scenario
} // namespace ns3
