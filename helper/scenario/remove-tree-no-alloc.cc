#include "helper/scenario/remove-tree-no-alloc.h"

#include <cerrno>
#include <cstring>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace ns3
{
namespace
{

bool RemoveAt(int dirFd, const char* name, int depth);

/** Remove everything inside the open folder `fd`; true when it is empty afterwards. */
bool
EmptyFolder(int fd, int depth)
{
    // Removing entries while reading a folder may make getdents skip some, so read it again from
    // the start until a pass finds nothing left to remove.
    alignas(8) char buffer[4096];
    for (;;)
    {
        bool removedAny = false;
        bool leftAny = false;
        if (::lseek(fd, 0, SEEK_SET) != 0)
        {
            return false;
        }
        for (;;)
        {
            const ssize_t n = ::getdents64(fd, buffer, sizeof(buffer));
            if (n <= 0)
            {
                break;
            }
            for (ssize_t offset = 0; offset < n;)
            {
                const auto* entry = reinterpret_cast<const struct dirent64*>(buffer + offset);
                offset += entry->d_reclen;
                const char* name = entry->d_name;
                if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0)
                {
                    continue;
                }
                if (RemoveAt(fd, name, depth + 1))
                {
                    removedAny = true;
                }
                else
                {
                    leftAny = true;
                }
            }
        }
        if (!leftAny)
        {
            return true;
        }
        if (!removedAny)
        {
            return false; // what is left cannot be removed
        }
    }
}

/** Remove `name` in the folder `dirFd`: a file or link at once, a folder after its contents. */
bool
RemoveAt(int dirFd, const char* name, int depth)
{
    if (::unlinkat(dirFd, name, 0) == 0 || errno == ENOENT)
    {
        return true;
    }
    if (errno != EISDIR && errno != EPERM) // Linux answers EISDIR for a folder (POSIX: EPERM)
    {
        return false;
    }
    if (depth >= kRemoveTreeMaxDepth)
    {
        return false;
    }
    const int fd = ::openat(dirFd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
    {
        return errno == ENOENT;
    }
    const bool empty = EmptyFolder(fd, depth);
    ::close(fd);
    return empty && (::unlinkat(dirFd, name, AT_REMOVEDIR) == 0 || errno == ENOENT);
}

} // namespace

bool
RemoveTreeNoAlloc(const char* path)
{
    return path != nullptr && path[0] != '\0' && RemoveAt(AT_FDCWD, path, 0);
}

} // namespace ns3
