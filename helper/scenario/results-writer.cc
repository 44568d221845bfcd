#include "helper/scenario/results-writer.h"

#include "helper/scenario/interrupt-cleanup.h"
#include "helper/scenario/queue-stats.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

std::string
Ns(const std::optional<Time>& t)
{
    return t ? std::to_string(t->GetNanoSeconds()) : std::string();
}

std::string
Number(double v)
{
    std::ostringstream os;
    os.precision(17);
    os << v;
    return os.str();
}

void
WriteFile(const fs::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out)
    {
        throw ResultsError("cannot write " + path.string());
    }
}

/** messages.csv: one row per message, with the sink's times. */
std::string
MessagesCsv(const std::vector<MessageRecord>& messages)
{
    std::ostringstream msg;
    msg << "workload,id,op,size_bytes,post_ns,first_placed_ns,delivered_ns,completed_ns,fct_ns,status,ideal_fct_ns\n";
    for (const auto& m : messages)
    {
        msg << CsvField(m.workload) << ',' << m.id << ',' << CsvField(m.op) << ',' << m.size << ','
            << m.post.GetNanoSeconds() << ',' << Ns(m.firstPlaced) << ',' << Ns(m.delivered) << ','
            << Ns(m.completed) << ',' << Ns(m.Fct()) << ',' << ToString(m.Status()) << ',' << Ns(m.idealFct) << '\n';
    }
    return msg.str();
}

/** collective-steps.csv: one row per step of each rank in each iteration of every collective workload. */
std::string
CollectiveStepsCsv(const std::vector<WorkloadResult>& workloads)
{
    std::ostringstream csv;
    csv << "workload,iteration,rank,host,step,posted_ns,done_ns\n";
    for (const WorkloadResult& w : workloads)
    {
        if (!w.collective)
        {
            continue;
        }
        for (const CollectiveStepRecord& s : w.collective->steps)
        {
            csv << CsvField(w.name) << ',' << s.iteration << ',' << s.rank << ','
                << CsvField(w.collective->ranks.at(s.rank)) << ',' << s.step << ',' << Ns(s.posted) << ','
                << Ns(s.done) << '\n';
        }
    }
    return csv.str();
}

/** host.csv: one row per host, its CPU busy time, bus octets and counters. */
std::string
HostCsv(const std::vector<HostResult>& hosts)
{
    // Counter columns are the union over the hosts, sorted, so that every row has every column.
    std::set<std::string> counterNames;
    for (const auto& h : hosts)
    {
        for (const auto& [name, v] : h.counters)
        {
            counterNames.insert(name);
        }
    }
    std::ostringstream host;
    host << "node,cores,cpu_busy_ns_total,cpu_busy_ns_per_core,bus_bytes";
    for (const auto& name : counterNames)
    {
        host << ',' << CsvField(name);
    }
    host << '\n';
    for (const auto& h : hosts)
    {
        int64_t total = 0;
        std::string perCore;
        for (const Time& t : h.cpuBusyPerCore)
        {
            total += t.GetNanoSeconds();
            perCore += (perCore.empty() ? "" : ";") + std::to_string(t.GetNanoSeconds());
        }
        host << CsvField(h.node) << ',' << h.cpuBusyPerCore.size() << ',' << total << ',' << perCore << ','
             << h.busBytes;
        for (const auto& name : counterNames)
        {
            auto it = h.counters.find(name);
            host << ',' << (it == h.counters.end() ? std::string() : Number(it->second));
        }
        host << '\n';
    }
    return host.str();
}

/** Copy the run's pcap files into `pcapDir`, skipping those already written there. */
void
CopyPcaps(const fs::path& pcapDir, const std::vector<std::string>& files)
{
    for (const auto& p : files)
    {
        const fs::path src(p);
        std::error_code ec;
        const fs::path dst = pcapDir / src.filename();
        if (fs::exists(dst) && fs::equivalent(src, dst, ec))
        {
            continue; // written straight into the temporary folder
        }
        fs::copy_file(src, dst, fs::copy_options::overwrite_existing, ec);
        if (ec)
        {
            throw ResultsError("cannot copy pcap " + p + ": " + ec.message());
        }
    }
}

} // namespace

std::string
CsvField(const std::string& s)
{
    if (s.find_first_of(",\"\n\r") == std::string::npos)
    {
        return s;
    }
    std::string q = "\"";
    for (char c : s)
    {
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return q + "\"";
}

ResultsWriter::ResultsWriter(std::string folder)
{
    while (folder.size() > 1 && folder.back() == '/')
    {
        folder.pop_back();
    }
    if (folder.empty())
    {
        throw ResultsError("results folder: empty path");
    }
    const fs::path final(folder);
    std::error_code ec;
    if (fs::exists(fs::symlink_status(final, ec)))
    {
        throw ResultsError("results folder " + folder +
                           " already exists; refusing to overwrite it (remove it or choose another output)");
    }
    const fs::path parent = final.has_parent_path() ? final.parent_path() : fs::path(".");
    // The folders about to be created, deepest first, so that a failed run removes them too.
    for (fs::path p = parent; !p.empty() && !fs::exists(p, ec); p = p.parent_path())
    {
        m_createdParents.push_back(p.string());
        if (p == p.parent_path())
        {
            break;
        }
    }
    fs::create_directories(parent, ec);
    if (ec)
    {
        throw ResultsError("cannot create " + parent.string() + ": " + ec.message());
    }
    // A hidden sibling in the same folder, so that the final rename stays within one file system.
    const fs::path temp = parent / ("." + final.filename().string() + ".tmp-" + std::to_string(::getpid()));
    fs::remove_all(temp, ec); // left by an earlier process that had our pid and crashed
    if (!fs::create_directory(temp, ec) || ec)
    {
        throw ResultsError("cannot create " + temp.string() + ": " + (ec ? ec.message() : "it exists"));
    }
    m_final = final.string();
    m_temp = temp.string();
    RegisterTemporaryFolder(m_temp, m_createdParents); // removed on SIGINT/SIGTERM too
}

ResultsWriter::~ResultsWriter()
{
    if (!m_committed)
    {
        Abandon();
    }
}

void
ResultsWriter::Abandon()
{
    if (m_committed || m_temp.empty())
    {
        return;
    }
    RemoveFolderAndParents(m_temp, m_createdParents);
    m_createdParents.clear();
    UnregisterTemporaryFolder(m_temp);
}

std::string
ResultsWriter::PcapDirectory(const std::string& sub)
{
    const fs::path dir = fs::path(m_temp) / sub;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
    {
        throw ResultsError("cannot create " + dir.string() + ": " + ec.message());
    }
    return dir.string();
}

void
ResultsWriter::Write(const RunResult& r)
{
    if (m_committed)
    {
        throw ResultsError("results folder " + m_final + " is already committed");
    }
    const fs::path dir(m_temp);
    WriteFile(dir / "summary.json", SummaryJson(r));
    if (!r.scenarioYaml.empty())
    {
        WriteFile(dir / "scenario.yaml", r.scenarioYaml);
    }
    WriteFile(dir / "messages.csv", MessagesCsv(r.messages));
    WriteFile(dir / "host.csv", HostCsv(r.hosts));
    if (!r.queues.empty())
    {
        WriteFile(dir / "queues.csv", QueuesCsv(r.queues));
    }
    if (std::any_of(r.workloads.begin(), r.workloads.end(), [](const WorkloadResult& w) { return w.collective; }))
    {
        WriteFile(dir / "collective-steps.csv", CollectiveStepsCsv(r.workloads));
    }
    if (!r.pcapFiles.empty())
    {
        CopyPcaps(PcapDirectory(r.pcapDirectory), r.pcapFiles);
    }
}

void
ResultsWriter::Commit()
{
    if (m_committed)
    {
        return;
    }
    // RENAME_NOREPLACE: a plain rename(2) would silently replace an empty folder of that name
    // created since the constructor checked.
    int rc = ::renameat2(AT_FDCWD, m_temp.c_str(), AT_FDCWD, m_final.c_str(), RENAME_NOREPLACE);
    if (rc != 0 && (errno == EINVAL || errno == ENOSYS))
    {
        // A file system without RENAME_NOREPLACE: check, then rename (a narrow race remains).
        std::error_code ec;
        if (fs::exists(fs::symlink_status(m_final, ec)))
        {
            errno = EEXIST;
        }
        else
        {
            rc = ::rename(m_temp.c_str(), m_final.c_str());
        }
    }
    if (rc != 0)
    {
        const int err = errno;
        Abandon();
        if (err == EEXIST || err == ENOTEMPTY)
        {
            throw ResultsError("results folder " + m_final + " appeared during the run; refusing to overwrite it");
        }
        throw ResultsError("cannot rename " + m_temp + " to " + m_final + ": " + std::strerror(err));
    }
    m_committed = true;
    UnregisterTemporaryFolder(m_temp);
}

} // namespace ns3
