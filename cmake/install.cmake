# `cmake --install` rules and the CMake package. Included after every
# subdirectory, so the optional parts install only where they were built.
# - The core: the five core libraries, the public headers (mailroom/*.hpp,
#   plus mailroom/detail/ which they include but which is not API), the
#   generated version.hpp; export set mailroomTargets (mailroom::core and its
#   parts); mailroom.pc.
# - The DevTools server (devtools-server/, when Boost.Beast was found):
#   mailroom::devtools_server, mailroom/devtools_server.hpp, the built panel
#   in share/mailroom/devtools-panel; mailroom-devtools-server.pc.
# - The database journals (database/, each when its client library was
#   found): mailroom::journal_database (the shared part), ::journal_sqlite,
#   ::journal_postgres and their headers; mailroom-journal-{sqlite,postgres}.pc.
# Each optional part has its own export file, which mailroomConfig.cmake
# loads only when the part is installed and its dependencies are found
# (components devtools_server, journal_sqlite, journal_postgres). A library
# an optional part links must be installed here too, or install(EXPORT) fails.
# Private headers live in core/src (and each part's src/) and never ship.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(MAILROOM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/mailroom)
# What `cmake --install` needs built (scripts/test.d/80-package.sh builds this).
add_custom_target(mailroom_installable)

function(mailroom_install_part export_set)  # targets...
  install(TARGETS ${ARGN}
          EXPORT ${export_set}
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT ${export_set} NAMESPACE mailroom:: DESTINATION ${MAILROOM_CMAKE_DIR})
  add_dependencies(mailroom_installable ${ARGN})
endfunction()

# @ONLY: ${prefix} and friends are pkg-config variables, not CMake ones.
file(RELATIVE_PATH MAILROOM_PC_TO_PREFIX /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
string(REGEX REPLACE "/$" "" MAILROOM_PC_TO_PREFIX "${MAILROOM_PC_TO_PREFIX}")
function(mailroom_install_pc name)
  configure_file(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${name}.pc.in ${PROJECT_BINARY_DIR}/${name}.pc
                 @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${name}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()

# ---------------------------------------------------------------- core --
mailroom_install_part(mailroomTargets mailroom_mailbox mailroom_persistence mailroom_deadletters
                      mailroom_runtime mailroom_devtools mailroom_core)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/include/mailroom
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
install(FILES ${MAILROOM_GENERATED_INCLUDE}/mailroom/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mailroom)
mailroom_install_pc(mailroom)
if(TARGET mailroom-dlq)
  add_dependencies(mailroom_installable mailroom-dlq)  # installed by tools/mailroom-dlq
endif()

# ------------------------------------------------------ DevTools server --
if(TARGET mailroom_devtools_server)
  mailroom_install_part(mailroomDevtoolsServerTargets mailroom_devtools_server)
  install(FILES ${PROJECT_SOURCE_DIR}/devtools-server/include/mailroom/devtools_server.hpp
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mailroom)
  # The built panel, as a plain static folder (attach.html becomes its index.html).
  # Not built: the install says so and the server's "/" explains how to build it.
  set(panel ${MAILROOM_DEVTOOLS_PANEL_BUILD})
  install(CODE "
    if(NOT EXISTS \"${panel}/attach.html\")
      message(WARNING \"DevTools panel not built (${panel}/attach.html missing): the installed \"
                      \"server will not serve it. Build it first: cmake --build <build> --target \"
                      \"mailroom_devtools_panel (needs npm ci)\")
    endif()")
  install(FILES ${panel}/attach.html DESTINATION ${MAILROOM_DEVTOOLS_PANEL_DESTINATION}
          RENAME index.html OPTIONAL)
  install(DIRECTORY ${panel}/assets DESTINATION ${MAILROOM_DEVTOOLS_PANEL_DESTINATION} OPTIONAL)
  mailroom_install_pc(mailroom-devtools-server)
endif()

# ------------------------------------------------------ database journals --
if(TARGET mailroom_journal_database)
  set(database_include ${PROJECT_SOURCE_DIR}/database/include/mailroom)
  set_target_properties(mailroom_journal_database PROPERTIES EXPORT_NAME journal_database)
  mailroom_install_part(mailroomJournalDatabaseTargets mailroom_journal_database)
  # Every database header but the backends' own goes with the shared part.
  install(DIRECTORY ${database_include} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.hpp"
          PATTERN "sqlite_journal.hpp" EXCLUDE PATTERN "postgres_journal.hpp" EXCLUDE)
  foreach(backend sqlite postgres)
    if(TARGET mailroom_journal_${backend})
      set_target_properties(mailroom_journal_${backend} PROPERTIES EXPORT_NAME journal_${backend})
      string(SUBSTRING ${backend} 0 1 first)
      string(TOUPPER ${first} first)
      string(SUBSTRING ${backend} 1 -1 rest)
      mailroom_install_part(mailroomJournal${first}${rest}Targets mailroom_journal_${backend})
      install(FILES ${database_include}/${backend}_journal.hpp
              DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mailroom)
      mailroom_install_pc(mailroom-journal-${backend})
    endif()
  endforeach()
endif()

# ------------------------------------------------------------- package --
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/mailroomConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/mailroomConfig.cmake
                              INSTALL_DESTINATION ${MAILROOM_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mailroomConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mailroomConfig.cmake
              ${PROJECT_BINARY_DIR}/mailroomConfigVersion.cmake
        DESTINATION ${MAILROOM_CMAKE_DIR})
