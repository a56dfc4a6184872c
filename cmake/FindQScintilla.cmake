# SPDX-License-Identifier: MIT
# Debian's libqscintilla2-qt6-dev ships no CMake config; find headers under the Qt6 include dir.
find_package(Qt6 COMPONENTS Widgets QUIET)
get_target_property(_qt_inc Qt6::Widgets INTERFACE_INCLUDE_DIRECTORIES)
find_path(QScintilla_INCLUDE_DIR NAMES Qsci/qsciscintilla.h HINTS ${_qt_inc} PATH_SUFFIXES qt6 ..)
find_library(QScintilla_LIBRARY NAMES qscintilla2_qt6 qscintilla2-qt6)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(QScintilla REQUIRED_VARS QScintilla_LIBRARY QScintilla_INCLUDE_DIR)
if(QScintilla_FOUND AND NOT TARGET QScintilla::QScintilla)
  add_library(QScintilla::QScintilla UNKNOWN IMPORTED)
  set_target_properties(QScintilla::QScintilla PROPERTIES
    IMPORTED_LOCATION ${QScintilla_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${QScintilla_INCLUDE_DIR}
    INTERFACE_LINK_LIBRARIES Qt6::Widgets)
endif()
