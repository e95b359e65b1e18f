# `cmake --install` rules and the CMake package: the five core libraries, the
# public headers (mailroom/*.hpp, plus mailroom/detail/ which they include but
# which is not API), the generated version.hpp, mailroomConfig.cmake +
# mailroomConfigVersion.cmake (SameMajorVersion) exporting mailroom::core, and
# mailroom.pc for pkg-config. Private headers live in core/src and never ship.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(MAILROOM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/mailroom)

install(TARGETS mailroom_mailbox mailroom_persistence mailroom_deadletters mailroom_runtime
                mailroom_devtools mailroom_core
        EXPORT mailroomTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/include/mailroom
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
install(FILES ${MAILROOM_GENERATED_INCLUDE}/mailroom/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mailroom)

install(EXPORT mailroomTargets NAMESPACE mailroom:: DESTINATION ${MAILROOM_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/mailroomConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/mailroomConfig.cmake
                              INSTALL_DESTINATION ${MAILROOM_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mailroomConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mailroomConfig.cmake
              ${PROJECT_BINARY_DIR}/mailroomConfigVersion.cmake
        DESTINATION ${MAILROOM_CMAKE_DIR})

# @ONLY: ${prefix} and friends are pkg-config variables, not CMake ones.
file(RELATIVE_PATH MAILROOM_PC_TO_PREFIX /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
string(REGEX REPLACE "/$" "" MAILROOM_PC_TO_PREFIX "${MAILROOM_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/mailroom.pc.in ${PROJECT_BINARY_DIR}/mailroom.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/mailroom.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
