// Where the server finds the built panel when DevtoolsOptions::panel_dir is
// empty (docs/devtools-protocol.md, "The panel's files").
#pragma once

#include <string>

namespace mailroom::devtools {

// The first of these folders that holds an index.html (else the first one,
// so "/" can say where it looked):
// 1. the share/ folder of the prefix find_package(mailroom) found (the CMake
//    package compiles that path into the program: relocatable installs work);
// 2. ../share/mailroom/devtools-panel beside the running program (an
//    application installed into the same prefix, e.g. built with pkg-config);
// 3. the install prefix this library was configured for.
std::string default_panel_dir();

}  // namespace mailroom::devtools
