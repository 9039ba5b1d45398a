/// `--name=value` arguments whose value starts with a combining mark, a ZWJ or a variation
/// selector: ArgumentParser looks for the `=` `Character`, but `=` and U+0301 form one `Character`,
/// so it would see an unknown option. Such an argument is split at its first `=` scalar into
/// `--name` and `value` before parsing. Arguments after `--` are left alone.
enum AttachedValues {
  static func split(_ arguments: [String]) -> [String] {
    var result: [String] = []
    var optionsEnded = false
    for argument in arguments {
      if optionsEnded || !argument.hasPrefix("--") || argument == "--" {
        if argument == "--" { optionsEnded = true }
        result.append(argument)
        continue
      }
      let scalars = argument.unicodeScalars
      guard let equals = scalars.firstIndex(of: "=") else {
        result.append(argument)
        continue
      }
      // Where ArgumentParser would split: the first `=` that is a whole Character.
      let characterEquals = argument.firstIndex(of: "=")
      if characterEquals == equals {
        result.append(argument)
      } else {
        result.append(String(scalars[..<equals]))
        result.append(String(scalars[scalars.index(after: equals)...]))
      }
    }
    return result
  }
}
