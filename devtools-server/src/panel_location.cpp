// The installed panel's folder (see panel_location.hpp). Kept apart from the
// Beast translation unit: a new install prefix recompiles only this file.
#include "panel_location.hpp"

#include <filesystem>
#include <system_error>
#include <vector>

#ifndef MAILROOM_DEVTOOLS_INSTALLED_PANEL_DIR
#define MAILROOM_DEVTOOLS_INSTALLED_PANEL_DIR ""
#endif

extern "C" {
// Defined (weak) by the source file mailroomConfig.cmake adds to every target
// that links the installed mailroom::devtools_server; absent otherwise.
__attribute__((weak)) extern const char* const mailroom_devtools_package_panel_dir;
}

namespace mailroom::devtools {

namespace {

constexpr const char* kShareFolder = "share/mailroom/devtools-panel";

std::string beside_program() {
  std::error_code ec;
  const auto program = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || program.empty()) return {};
  return (program.parent_path().parent_path() / kShareFolder).string();
}

}  // namespace

std::string default_panel_dir() {
  std::vector<std::string> candidates;
  if (&mailroom_devtools_package_panel_dir != nullptr && mailroom_devtools_package_panel_dir) {
    candidates.emplace_back(mailroom_devtools_package_panel_dir);
  }
  if (std::string dir = beside_program(); !dir.empty()) candidates.push_back(std::move(dir));
  if (*MAILROOM_DEVTOOLS_INSTALLED_PANEL_DIR)
    candidates.emplace_back(MAILROOM_DEVTOOLS_INSTALLED_PANEL_DIR);
  for (const std::string& dir : candidates) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(std::filesystem::path(dir) / "index.html", ec)) return dir;
  }
  return candidates.empty() ? std::string() : candidates.front();
}

}  // namespace mailroom::devtools
