#include "support/abort-message.h"

#include <csignal>
#include <cstdio>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

namespace ns3
{

std::string
AbortMessage(const std::function<void()>& f)
{
    int fds[2];
    if (pipe(fds) != 0)
    {
        return "pipe failed";
    }
    std::cout.flush();
    std::cerr.flush();
    const pid_t child = fork();
    if (child == 0)
    {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        f();
        _exit(0); // returned: no abort
    }
    close(fds[1]);
    std::string text;
    char buf[512];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
    {
        text.append(buf, std::size_t(n));
    }
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    const bool aborted = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
    return aborted ? (text.empty() ? "aborted, saying nothing" : text) : "";
}

} // namespace ns3
