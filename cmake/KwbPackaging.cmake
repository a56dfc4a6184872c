# SPDX-License-Identifier: MIT
# Desktop integration and a Debian package (cpack -G DEB).
if(KWB_BUILD_UI)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/kernel-workbench.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/io.github.kernelworkbench.KernelWorkbench.metainfo.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/icons/io.github.kernelworkbench.KernelWorkbench.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()
# Data root of an installed copy: resources/ plus the candidate contract the prompts quote.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/ DESTINATION ${CMAKE_INSTALL_DATADIR}/kernel-workbench/resources)
install(FILES ${PROJECT_SOURCE_DIR}/docs/candidate-contract.md DESTINATION ${CMAKE_INSTALL_DATADIR}/kernel-workbench/docs)

set(CPACK_PACKAGE_NAME "kernel-workbench")
set(CPACK_PACKAGE_VENDOR "Kernel Workbench")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Develop Ascend C NPU kernels together with an LLM agent")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "Kernel Workbench developers")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "g++")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "bubblewrap")
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_GENERATOR "DEB")
include(CPack)
