import TextRotorICU

/// Lists the files a search of some paths covers, as ripgrep chooses them: a file named on the
/// command line is always searched; a directory is walked recursively, skipping
///
/// - hidden entries (names starting with `.`) unless ``Options/hidden``;
/// - what `.gitignore` (inside a git repository: a directory holding `.git`, or below one),
///   `.ignore` and `.rgignore` files and `.git/info/exclude` exclude, nested files taking
///   precedence over their parents', `.rgignore` over `.ignore` over `.gitignore` over
///   `.git/info/exclude`, unless ``Options/respectIgnoreFiles`` is false. Ignore files of the
///   directories above a walked directory count too (of its real path, symbolic links resolved):
///   `.gitignore` up to its repository's root, `.ignore` and `.rgignore` up to the file system's;
///   in a repository, git's global excludes file (``Options/globalGitignore``) last of all;
/// - symbolic links (not followed), and anything not a regular file or directory;
/// - with ``Options/globs``, what they exclude: globs in gitignore syntax (`!` excludes; `{a,b}`
///   alternatives, as ripgrep's), matched against the path as it is printed (the walked
///   directory's path, without a leading `./`, then the path in it), as ripgrep matches them from
///   the current directory; when any glob does not start with `!`, only files matching one of
///   those are searched. They override the ignore files;
/// - with ``Options/types``, files of no selected type (`-t`) or of a negated one (`-T`),
///   matched by name (an override glob that matched decides first, and a type that selects a
///   file also selects it when it is hidden, as in ripgrep);
/// - with ``Options/maxDepth``, what lies deeper than that below a walked path (its entries are
///   at depth 1).
///
/// With ``Options/followLinks`` (`-L`), symbolic links are followed; one that leads to a
/// directory being walked above it is reported (a loop) and not followed.
///
/// Names and paths are compared as UTF-8 bytes, as git and ripgrep compare them (a name starting
/// with a combining mark is still hidden by its `.`, and still matched from its `/`).
public struct FileWalker: Sendable {
  public struct Options: Sendable {
    public var hidden = false
    public var respectIgnoreFiles = true
    public var globs: [String] = []
    public var types = try! FileTypes.Selection(select: [], negate: [])
    /// Nil: no limit; 0: only the paths given.
    public var maxDepth: Int? = nil
    public var followLinks = false
    /// Git's global excludes file (`core.excludesFile`, by default `~/.config/git/ignore`), which
    /// applies inside a git repository after all the others, as in git and rg; nil: none.
    /// ``FileWalker/gitGlobalExcludesFile()`` finds it.
    public var globalGitignore: String? = nil
    public init() {}
  }

  public let options: Options
  private let overrides: IgnoreRules
  private let hasWhitelist: Bool
  /// The rules of ``Options/globalGitignore``, matched from the repository's root.
  private let globalRules: IgnoreRules

  public init(options: Options) {
    self.options = options
    var overrides = IgnoreRules()
    var whitelist = false
    // rg's -g: a glob selects (whitelists), `!glob` excludes: the opposite of a gitignore line.
    // (Bytes: "!" followed by a combining mark is one Character.)
    for option in options.globs {
      for glob in Glob.alternatives(option) {
        if glob.utf8.first == UInt8(ascii: "!") {
          let rest = String(decoding: glob.utf8.dropFirst(), as: UTF8.self)
          // The rest is a glob, not a comment or a negation of a gitignore line: `!#*#` excludes
          // `#notes#`, `!!x` excludes `!x`.
          let escaped = rest.utf8.first == UInt8(ascii: "#") || rest.utf8.first == UInt8(ascii: "!")
          // `-g !` (nothing after the `!` but spaces) is rg's empty glob, which excludes everything.
          let blank = rest.utf8.allSatisfy { $0 == UInt8(ascii: " ") }
          overrides.add(line: blank ? "*" : escaped ? "\\" + rest : rest)
        } else {
          // As rg reads a -g glob: a gitignore line, so `#...` is a comment and a glob of spaces
          // is empty: neither selects nor whitelists anything (`-g ''` searches everything). A
          // glob that matches nothing (`/`, `a//`) still whitelists: nothing is searched.
          if glob.utf8.first == UInt8(ascii: "#") || glob.utf8.allSatisfy({ $0 == UInt8(ascii: " ") }) { continue }
          whitelist = true
          overrides.add(line: "!" + glob)
        }
      }
    }
    self.overrides = overrides
    self.hasWhitelist = whitelist
    var global = IgnoreRules()
    if options.respectIgnoreFiles, let path = options.globalGitignore,
      FileSystem.kind(of: path, followLinks: true) == .regular,
      let bytes = try? ByteStorage.contentsOf(path: path)
    {
      global = IgnoreRules(bytes.string(0..<bytes.count))
    }
    globalRules = global
  }

  /// Git's global excludes file, as git finds it: `core.excludesFile` in `~/.gitconfig` or
  /// `$XDG_CONFIG_HOME/git/config` (`~/.config/git/config`), else `$XDG_CONFIG_HOME/git/ignore`
  /// (`~/.config/git/ignore`); nil without a home directory.
  public static func gitGlobalExcludesFile() -> String? {
    let home = FileSystem.environment("HOME").flatMap { $0.isEmpty ? nil : $0 }
    let xdg =
      FileSystem.environment("XDG_CONFIG_HOME").flatMap { $0.isEmpty ? nil : $0 } ?? home.map { $0 + "/.config" }
    func expanded(_ path: String) -> String {
      if let home, path == "~" || path.hasPrefix("~/") { return home + path.dropFirst() }
      return path
    }
    // git reads the XDG file first and ~/.gitconfig after it: the last setting wins.
    var configured: String? = nil
    for config in [xdg.map { $0 + "/git/config" }, home.map { $0 + "/.gitconfig" }].compactMap({ $0 }) {
      if let value = excludesFile(inGitConfig: config) { configured = value }
    }
    if let configured { return expanded(configured) }
    return xdg.map { $0 + "/git/ignore" }
  }

  /// `core.excludesFile` in the git configuration file at `path` (its last setting), if any: a
  /// plain reading of git's syntax (sections, `key = value`, `#` and `;` comments, quotes).
  static func excludesFile(inGitConfig path: String) -> String? {
    guard FileSystem.kind(of: path, followLinks: true) == .regular,
      let bytes = try? ByteStorage.contentsOf(path: path)
    else { return nil }
    func trimmed(_ s: Substring) -> Substring {
      let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
      guard let first = s.firstIndex(where: { !blank($0) }), let last = s.lastIndex(where: { !blank($0) }) else {
        return ""
      }
      return s[first...last]
    }
    var section = ""
    var found: String? = nil
    for raw in bytes.string(0..<bytes.count).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
      var line = trimmed(raw)
      if line.first == "[" {
        let name = line.dropFirst().prefix { $0 != "]" && $0 != " " && $0 != "\"" }
        section = name.lowercased()
        continue
      }
      if line.first == "#" || line.first == ";" { continue }
      guard section == "core", let equals = line.firstIndex(of: "=") else { continue }
      let key = trimmed(line[..<equals]).lowercased()
      guard key == "excludesfile" else { continue }
      line = line[line.index(after: equals)...]
      var value = String(trimmed(line))
      if value.count >= 2, value.first == "\"", value.last == "\"" { value = String(value.dropFirst().dropLast()) }
      if !value.isEmpty { found = value }
    }
    return found
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
    var ancestors: [(path: String, identity: [UInt64])] = []
    if options.followLinks, let identity = FileSystem.identity(of: root) { ancestors.append((root, identity)) }
    walkDirectory(
      root, relative: "", shown: Self.shownPrefix(root), depth: 0, levels: &levels, ancestors: &ancestors,
      onError: onError, visit)
  }

  /// What the paths under `root` are printed with before their path in it, as the globs see it:
  /// `root` without `./` at its start and with one `/` at its end (none for the current directory),
  /// relative to the current directory when it lies below it (ripgrep matches its globs from there).
  static func shownPrefix(_ root: String) -> String {
    var bytes = Array(root.utf8)
    if bytes.first == UInt8(ascii: "/"), let cwd = FileSystem.currentDirectory() {
      var base = Array(cwd.utf8)
      if base.last != UInt8(ascii: "/") { base.append(UInt8(ascii: "/")) }
      while bytes.count > 1 && bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
      if bytes + [UInt8(ascii: "/")] == base { return "" }
      if bytes.starts(with: base) { bytes.removeFirst(base.count) }
    }
    while bytes.starts(with: [UInt8(ascii: "."), UInt8(ascii: "/")]) {
      bytes.removeFirst(2)
      while bytes.first == UInt8(ascii: "/") { bytes.removeFirst() }
    }
    while bytes.count > 1 && bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
    if bytes.isEmpty || bytes == [UInt8(ascii: ".")] { return "" }
    if bytes == [UInt8(ascii: "/")] { return "/" }
    return String(decoding: bytes, as: UTF8.self) + "/"
  }

  /// The ignore files of one directory.
  struct Level {
    /// The directory's path relative to the walk root, with a trailing "/" ("" at the root).
    let directoryPrefix: String
    /// `directoryPrefix`'s bytes (``FileSystem/bytes(of:)``), counted once, not once a file.
    let directoryPrefixCount: Int
    var rgignore = IgnoreRules()
    var ignore = IgnoreRules()
    var gitignore = IgnoreRules()
    var exclude = IgnoreRules()
    var hasGit = false
    /// A level above the walk root: paths are matched relative to it with this extra prefix.
    var aboveRootPrefix: String = ""
    init(directoryPrefix: String) {
      self.directoryPrefix = directoryPrefix
      directoryPrefixCount = FileSystem.bytes(of: directoryPrefix).count
    }

    /// Whether any of its rule sets has a rule.
    var hasRules: Bool { !(rgignore.isEmpty && ignore.isEmpty && gitignore.isEmpty && exclude.isEmpty) }
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
    let base = directory.utf8.last == UInt8(ascii: "/") ? directory : directory + "/"
    level.hasGit = FileSystem.kind(of: base + ".git", followLinks: true) != nil
    if let r = readRules(base + ".rgignore") { level.rgignore = r }
    if let r = readRules(base + ".ignore") { level.ignore = r }
    if let r = readRules(base + ".gitignore") { level.gitignore = r }
    if level.hasGit, let r = readRules(base + ".git/info/exclude") { level.exclude = r }
    return level
  }

  /// The directories above `root` (its real path: a symbolic link to a directory is walked with
  /// the ignore files above its target), outermost first, with their ignore files: `.gitignore`
  /// and `.git/info/exclude` up to the root of its git repository (none when it is in none),
  /// `.ignore` and `.rgignore` up to the file system's root, as ripgrep reads them. Only when
  /// ignore files are respected.
  private func parentLevels(of root: String) -> [Level] {
    guard options.respectIgnoreFiles else { return [] }
    guard let absolute = FileSystem.realPath(root) ?? Self.absolute(root) else { return [] }
    var components = absolute.utf8.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
    var levels: [Level] = []
    var suffix: [String] = []
    // The repository's root: the root itself or the first directory above holding .git.
    var inRepository =
      FileSystem.kind(
        of: (absolute.utf8.last == UInt8(ascii: "/") ? absolute : absolute + "/") + ".git", followLinks: true)
      != nil
    while !components.isEmpty {
      suffix.insert(components.removeLast(), at: 0)
      let dir = "/" + components.joined(separator: "/")
      var level = level(for: dir, prefix: "")
      level.aboveRootPrefix = suffix.joined(separator: "/") + "/"
      if inRepository {
        // Above the repository: only .ignore and .rgignore apply.
        level.gitignore = IgnoreRules()
        level.exclude = IgnoreRules()
        level.hasGit = false
      } else if level.hasGit {
        inRepository = true
      }
      levels.insert(level, at: 0)
    }
    // In no repository at all: .gitignore files up there do not apply.
    if !inRepository {
      levels = levels.map {
        var l = $0
        l.gitignore = IgnoreRules()
        return l
      }
    }
    return levels
  }

  private static func absolute(_ path: String) -> String? {
    if path.utf8.first == UInt8(ascii: "/") { return path }
    guard let cwd = currentDirectory() else { return nil }
    let split = { (s: String) in s.utf8.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
    }
    var parts = split(cwd)
    for c in split(path) {
      if c == "." { continue }
      if c == ".." {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(c)
    }
    return "/" + parts.joined(separator: "/")
  }

  private static func currentDirectory() -> String? {
    FileSystem.currentDirectory()
  }

  /// Whether `relative` (from the walk root) is excluded.
  private func isIgnored(relative: String, shown: String, name: String, isDirectory: Bool, levels: [Level]) -> Bool {
    // A whitelist whose globs all matched nothing (`-g /`: a glob of a slash alone) still
    // whitelists: no file is searched, as in rg.
    if !overrides.isEmpty || hasWhitelist {
      switch overrides.decision(forPath: FileSystem.bytes(of: shown + relative)[...], isDirectory: isDirectory) {
      case .ignore?: return true
      case .include?: return false
      case nil: if hasWhitelist && !isDirectory { return true }
      }
    }
    let hidden = !options.hidden && name.utf8.first == UInt8(ascii: ".")
    // Types (`-t`, `-T`) after the ignore files, as rg: one that selects a file whitelists it
    // (a hidden one too); files only.
    func typed(_ whitelisted: Bool) -> Bool {
      var whitelisted = whitelisted
      if !isDirectory && !options.types.isEmpty {
        switch options.types.decision(forName: FileSystem.bytes(of: name)[...]) {
        case .ignore?: return true
        case .include?: whitelisted = true
        case nil: break
        }
      }
      return !whitelisted && hidden
    }
    guard options.respectIgnoreFiles else { return typed(false) }
    var custom: IgnoreRules.Decision? = nil
    var ignore: IgnoreRules.Decision? = nil
    var git: IgnoreRules.Decision? = nil
    var exclude: IgnoreRules.Decision? = nil
    var global: IgnoreRules.Decision? = nil
    var sawGit = false
    let inRepository = levels.contains { $0.hasGit }
    // The path's bytes, made once for every level's rules: each level sees the part below it. A
    // name's bytes, not its string's: an ill-formed byte is one byte to `?` and sets (``FileSystem``).
    let bytes = FileSystem.bytes(of: relative)
    // By index, in place: a level holds four rule sets of five collections each, and a copy of it
    // per level and file retained them all. Most directories have no ignore file: skipped.
    for k in levels.indices.reversed() {
      // The repository's root (the innermost `.git`) matches the global excludes from there.
      let globalHere = inRepository && !sawGit && levels[k].hasGit && !globalRules.isEmpty
      if levels[k].hasRules || globalHere {
        let path: ArraySlice<UInt8>
        if levels[k].directoryPrefix.isEmpty {
          path =
            levels[k].aboveRootPrefix.isEmpty
            ? bytes[...] : (FileSystem.bytes(of: levels[k].aboveRootPrefix) + bytes)[...]
        } else {
          path = bytes[levels[k].directoryPrefixCount...]
        }
        if custom == nil { custom = levels[k].rgignore.decision(forPath: path, isDirectory: isDirectory) }
        if ignore == nil { ignore = levels[k].ignore.decision(forPath: path, isDirectory: isDirectory) }
        if inRepository && !sawGit && git == nil {
          git = levels[k].gitignore.decision(forPath: path, isDirectory: isDirectory)
        }
        if inRepository && !sawGit && exclude == nil {
          exclude = levels[k].exclude.decision(forPath: path, isDirectory: isDirectory)
        }
        if globalHere { global = globalRules.decision(forPath: path, isDirectory: isDirectory) }
      }
      if levels[k].hasGit { sawGit = true }
    }
    // As rg: a `!` rule that re-includes a hidden file wins over hiding it.
    switch custom ?? ignore ?? git ?? exclude ?? global {
    case .ignore?: return true
    case .include?: return typed(true)
    case nil: return typed(false)
    }
  }

  private func walkDirectory(
    _ directory: String, relative: String, shown: String, depth: Int, levels: inout [Level],
    ancestors: inout [(path: String, identity: [UInt64])], onError: ErrorHandler, _ visit: (String) -> Void
  ) {
    if let maxDepth = options.maxDepth, depth >= maxDepth { return }
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
    let base = directory.utf8.last == UInt8(ascii: "/") ? directory : directory + "/"
    // By their bytes (as ripgrep orders them; a name's own, ``FileSystem/bytes(of:)``), compared
    // as arrays: the string views' generic comparison was a tenth of a walk's own time.
    let sorted = entries.map { (key: FileSystem.bytes(of: $0.name), entry: $0) }.sorted {
      $0.key.lexicographicallyPrecedes($1.key)
    }
    for (_, entry) in sorted {
      var kind = entry.kind
      let path = base + entry.name
      if kind == .symbolicLink && options.followLinks {
        // A broken link or a loop of links is reported, as rg reports it.
        switch FileSystem.target(of: path) {
        case .success(let target): kind = target
        case .failure(let error):
          onError(error)
          continue
        }
      }
      let isDirectory = kind == .directory
      guard kind == .regular || isDirectory else { continue }
      let childRelative = prefix + entry.name
      if isIgnored(relative: childRelative, shown: shown, name: entry.name, isDirectory: isDirectory, levels: levels) {
        continue
      }
      if isDirectory {
        var followed = false
        if options.followLinks, let identity = FileSystem.identity(of: path) {
          // As rg: only a directory reached through a link is checked against those above it
          // (a real directory reached again below a link to a parent is walked once more).
          if entry.kind == .symbolicLink, let above = ancestors.first(where: { $0.identity == identity }) {
            onError(FileError(path: path, reason: .loop(ancestor: above.path)))
            continue
          }
          ancestors.append((path, identity))
          followed = true
        }
        walkDirectory(
          path, relative: childRelative, shown: shown, depth: depth + 1, levels: &levels, ancestors: &ancestors,
          onError: onError, visit)
        if followed { ancestors.removeLast() }
      } else {
        visit(path)
      }
    }
  }
}
