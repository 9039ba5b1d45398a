/// Arguments rewritten before ArgumentParser sees them.
///
/// `--name=value` arguments whose value starts with a combining mark, a ZWJ or a variation
/// selector: ArgumentParser looks for the `=` `Character`, but `=` and U+0301 form one `Character`,
/// so it would see an unknown option. Such an argument is split at its first `=` scalar into
/// `--name` and `value` before parsing. Arguments after `--` are left alone.
enum AttachedValues {
  static func split(_ arguments: [String]) -> [String] {
    var result: [String] = []
    var optionsEnded = false
    var previous = ""
    for argument in arguments {
      defer { previous = argument }
      // `--at -5`: ArgumentParser would read -5 as an option and say the value is missing; joined
      // as `--at=-5` it reaches the command's own check ("must be 0 or more").
      if !optionsEnded && previous == "--at" && argument.count > 1 && argument.hasPrefix("-")
        && argument.dropFirst().allSatisfy(\.isASCII) && argument.dropFirst().allSatisfy(\.isNumber)
      {
        result[result.count - 1] = "--at=" + argument
        continue
      }
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
