// Loads the plugin (a shared library holding the static Mailroom libraries)
// and prints what its actor handled.
#include <iostream>

extern "C" int mailroom_plugin_count(int messages);

int main() {
  std::cout << "plugin: handled " << mailroom_plugin_count(100) << " of 100\n";
}
