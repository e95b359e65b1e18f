# Sourced by the build and test scripts: use ccache when it is installed and
# no compiler launcher was chosen. Paths are hashed relative to the checkout
# (CCACHE_BASEDIR, CCACHE_NOHASHDIR), so clones and worktrees share hits.
# Nothing installs ccache: a machine without it builds exactly as before.
if [[ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]] && command -v ccache >/dev/null 2>&1; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=1
fi
