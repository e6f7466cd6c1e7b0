/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FOLDER_LOCK_H
#define FOLDER_LOCK_H

#include <filesystem>

namespace ns3
{

/**
 * \ingroup photonic-rails
 * \brief Holds a folder for one program at a time (an advisory lock on FOLDER/.lock, taken
 *        without waiting and released when the object or the process ends): two sweeps
 *        writing the same run folders would mix their runs, silently.
 */
class FolderLock
{
  public:
    /**
     * \param dir the folder (made if missing)
     * \throws std::runtime_error "DIR is in use by another sweep (process N)" if another
     *         process holds it, or a one-line reason if the lock cannot be taken
     */
    explicit FolderLock(const std::filesystem::path& dir);
    ~FolderLock();
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;

  private:
    int m_fd{-1}; //!< The lock file, open while held
};

} // namespace ns3

#endif /* FOLDER_LOCK_H */
