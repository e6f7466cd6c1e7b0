/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "folder-lock.h"

#include <fcntl.h>
#include <fstream>
#include <stdexcept>
#include <string>
#include <sys/file.h>
#include <unistd.h>

namespace ns3
{

FolderLock::FolderLock(const std::filesystem::path& dir)
{
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    std::string path = (dir / ".lock").string();
    // O_CLOEXEC: the runs this program starts must not hold the folder after it ends.
    m_fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (m_fd < 0)
    {
        throw std::runtime_error(path + ": cannot open the lock file");
    }
    if (flock(m_fd, LOCK_EX | LOCK_NB) != 0)
    {
        std::ifstream in(path);
        std::string holder;
        std::getline(in, holder);
        close(m_fd);
        m_fd = -1;
        throw std::runtime_error(dir.string() + " is in use by another sweep" +
                                 (holder.empty() ? "" : " (process " + holder + ")") +
                                 ": wait for it to end, or give another --out");
    }
    std::string pid = std::to_string(getpid()) + "\n";
    if (ftruncate(m_fd, 0) != 0 || write(m_fd, pid.data(), pid.size()) < 0)
    {
        // The pid only helps the message above; the lock holds without it.
    }
}

FolderLock::~FolderLock()
{
    if (m_fd >= 0)
    {
        close(m_fd); // releases the lock
    }
}

} // namespace ns3
