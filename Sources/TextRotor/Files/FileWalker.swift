import TextRotorICU

/// Lists the files a search of some paths covers, as ripgrep chooses them: a file named on the
/// command line is always searched; a directory is walked recursively, skipping
///
/// - hidden entries (names starting with `.`) unless ``Options/hidden``;
/// - what `.gitignore` (inside a git repository: a directory holding `.git`, or below one),
///   `.ignore` and `.rgignore` files and `.git/info/exclude` exclude, nested files taking
///   precedence over their parents', `.rgignore` over `.ignore` over `.gitignore` over
///   `.git/info/exclude`, unless ``Options/respectIgnoreFiles`` is false. Ignore files of the
///   directories above a walked directory, up to its repository's root, count too;
/// - symbolic links (not followed), and anything not a regular file or directory;
/// - with ``Options/globs``, what they exclude: globs in gitignore syntax (`!` excludes), matched
///   against the path relative to the walked directory; when any glob does not start with `!`, only
///   files matching one of those are searched. They override the ignore files.
public struct FileWalker: Sendable {
  public struct Options: Sendable {
    public var hidden = false
    public var respectIgnoreFiles = true
    public var globs: [String] = []
    public init() {}
  }

  public let options: Options
  private let overrides: IgnoreRules
  private let hasWhitelist: Bool

  public init(options: Options) {
    self.options = options
    var overrides = IgnoreRules()
    var whitelist = false
    // rg's -g: a glob selects (whitelists), `!glob` excludes: the opposite of a gitignore line.
    for glob in options.globs {
      if glob.hasPrefix("!") {
        overrides.add(line: String(glob.dropFirst()))
      } else {
        whitelist = true
        overrides.add(line: "!" + glob)
      }
    }
    self.overrides = overrides
    self.hasWhitelist = whitelist
  }

  /// A reported problem (an unreadable directory); the walk goes on.
  public typealias ErrorHandler = (FileError) -> Void

  /// Calls `visit` with each file to search under `root` (or `root` itself when it is not a
  /// directory), in a stable order (entries sorted by name).
  public func walk(_ root: String, onError: ErrorHandler, _ visit: (String) -> Void) {
    guard FileSystem.kind(of: root, followLinks: true) == .directory else {
      visit(root)
      return
    }
    var levels = parentLevels(of: root)
    walkDirectory(root, relative: "", levels: &levels, onError: onError, visit)
  }

  /// The ignore files of one directory.
  struct Level {
    /// The directory's path relative to the walk root, with a trailing "/" ("" at the root).
    var directoryPrefix: String
    var rgignore = IgnoreRules()
    var ignore = IgnoreRules()
    var gitignore = IgnoreRules()
    var exclude = IgnoreRules()
    var hasGit = false
    /// A level above the walk root: paths are matched relative to it with this extra prefix.
    var aboveRootPrefix: String = ""
  }

  private func readRules(_ path: String) -> IgnoreRules? {
    guard FileSystem.kind(of: path, followLinks: true) == .regular,
      let bytes = try? ByteStorage.contentsOf(path: path)
    else { return nil }
    return IgnoreRules(bytes.string(0..<bytes.count))
  }

  private func level(for directory: String, prefix: String) -> Level {
    var level = Level(directoryPrefix: prefix)
    guard options.respectIgnoreFiles else { return level }
    let base = directory.hasSuffix("/") ? directory : directory + "/"
    level.hasGit = FileSystem.kind(of: base + ".git", followLinks: true) != nil
    if let r = readRules(base + ".rgignore") { level.rgignore = r }
    if let r = readRules(base + ".ignore") { level.ignore = r }
    if let r = readRules(base + ".gitignore") { level.gitignore = r }
    if level.hasGit, let r = readRules(base + ".git/info/exclude") { level.exclude = r }
    return level
  }

  /// The directories above `root` up to the root of its git repository (or the file system's
  /// root), outermost first, with their ignore files. Only when ignore files are respected.
  private func parentLevels(of root: String) -> [Level] {
    guard options.respectIgnoreFiles else { return [] }
    guard let absolute = Self.absolute(root) else { return [] }
    var components = absolute.split(separator: "/").map(String.init)
    var levels: [Level] = []
    var suffix: [String] = []
    // Only within a repository: stop at the first directory holding .git (inclusive).
    if FileSystem.kind(of: (absolute.hasSuffix("/") ? absolute : absolute + "/") + ".git", followLinks: true) != nil {
      return []
    }
    while !components.isEmpty {
      suffix.insert(components.removeLast(), at: 0)
      let dir = "/" + components.joined(separator: "/")
      var level = level(for: dir, prefix: "")
      level.aboveRootPrefix = suffix.joined(separator: "/") + "/"
      levels.insert(level, at: 0)
      if level.hasGit { return levels }
    }
    // No repository above: .gitignore files up there do not apply; .ignore files still do.
    return levels.map {
      var l = $0
      l.gitignore = IgnoreRules()
      return l
    }
  }

  private static func absolute(_ path: String) -> String? {
    if path.hasPrefix("/") { return path }
    guard let cwd = currentDirectory() else { return nil }
    var parts = cwd.split(separator: "/").map(String.init)
    for c in path.split(separator: "/") {
      if c == "." { continue }
      if c == ".." {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(String(c))
    }
    return "/" + parts.joined(separator: "/")
  }

  private static func currentDirectory() -> String? {
    FileSystem.currentDirectory()
  }

  /// Whether `relative` (from the walk root) is excluded.
  private func isIgnored(relative: String, name: String, isDirectory: Bool, levels: [Level]) -> Bool {
    if !overrides.isEmpty {
      switch overrides.decision(for: relative, isDirectory: isDirectory) {
      case .ignore?: return true
      case .include?: return false
      case nil: if hasWhitelist && !isDirectory { return true }
      }
    }
    let hidden = !options.hidden && name.hasPrefix(".")
    guard options.respectIgnoreFiles else { return hidden }
    var custom: IgnoreRules.Decision? = nil
    var ignore: IgnoreRules.Decision? = nil
    var git: IgnoreRules.Decision? = nil
    var exclude: IgnoreRules.Decision? = nil
    var sawGit = false
    var inRepository = false
    for level in levels where level.hasGit { inRepository = true }
    for level in levels.reversed() {
      let path: String
      if level.directoryPrefix.isEmpty {
        path = level.aboveRootPrefix + relative
      } else {
        path = String(relative.dropFirst(level.directoryPrefix.count))
      }
      if custom == nil { custom = level.rgignore.decision(for: path, isDirectory: isDirectory) }
      if ignore == nil { ignore = level.ignore.decision(for: path, isDirectory: isDirectory) }
      if inRepository && !sawGit && git == nil { git = level.gitignore.decision(for: path, isDirectory: isDirectory) }
      if inRepository && !sawGit && exclude == nil {
        exclude = level.exclude.decision(for: path, isDirectory: isDirectory)
      }
      if level.hasGit { sawGit = true }
    }
    // As rg: a `!` rule that re-includes a hidden file wins over hiding it.
    switch custom ?? ignore ?? git ?? exclude {
    case .ignore?: return true
    case .include?: return false
    case nil: return hidden
    }
  }

  private func walkDirectory(
    _ directory: String, relative: String, levels: inout [Level], onError: ErrorHandler, _ visit: (String) -> Void
  ) {
    let entries: [FileSystem.Entry]
    do {
      entries = try FileSystem.entries(of: directory)
    } catch {
      onError(error)
      return
    }
    let prefix = relative.isEmpty ? "" : relative + "/"
    levels.append(level(for: directory, prefix: prefix))
    defer { levels.removeLast() }
    let base = directory.hasSuffix("/") ? directory : directory + "/"
    for entry in entries.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
      let isDirectory = entry.kind == .directory
      guard entry.kind == .regular || isDirectory else { continue }
      let childRelative = prefix + entry.name
      if isIgnored(relative: childRelative, name: entry.name, isDirectory: isDirectory, levels: levels) { continue }
      let path = base + entry.name
      if isDirectory {
        walkDirectory(path, relative: childRelative, levels: &levels, onError: onError, visit)
      } else {
        visit(path)
      }
    }
  }
}
