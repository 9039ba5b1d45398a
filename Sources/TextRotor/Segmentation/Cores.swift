import Glibc

func sysconfCores() -> Int32 {
  let n = sysconf(Int32(_SC_NPROCESSORS_ONLN))
  return n > 0 ? Int32(n) : 1
}
