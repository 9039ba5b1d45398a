import CTextRotorShim

/// An ICU call failed. `name` is ICU's own name for the code (`U_ILLEGAL_ARGUMENT_ERROR`, ...).
public struct ICUError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The raw `UErrorCode` value.
  public let code: Int32
  /// What textrotor was doing when ICU failed.
  public let operation: String

  public var name: String { String(cString: cicu_errorName(code)) }
  public var description: String { "\(operation): \(name)" }

  /// True for ICU's time-limit failure (a regular expression ran past `uregex_setTimeLimit`).
  public var isTimeOut: Bool { code == CICU_REGEX_TIME_OUT }
  /// True for ICU's stack-limit failure (a regular expression needed more backtracking memory).
  public var isStackOverflow: Bool { code == CICU_REGEX_STACK_OVERFLOW }

  /// For failures that did not come from ICU itself.
  public static let unknown = ICUError(CICU_INTERNAL_PROGRAM_ERROR, "unexpected error")

  init(_ status: Int32, _ operation: String) {
    self.code = status
    self.operation = operation
  }

  /// Throws when `status` is a failure; ICU's warnings (negative codes) are not failures.
  static func check(_ status: Int32, _ operation: @autoclosure () -> String) throws(ICUError) {
    if cicu_isFailure(status) != 0 { throw ICUError(status, operation()) }
  }
}

/// The version of the ICU library textrotor runs on, e.g. "72.1".
public var icuVersion: String {
  var version: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
  withUnsafeMutableBytes(of: &version) { raw in
    cicu_getVersion(raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
  }
  return version.2 == 0 ? "\(version.0).\(version.1)" : "\(version.0).\(version.1).\(version.2)"
}
