/// File types for `find -t TYPE` / `-T TYPE`, as ripgrep names them: each a name and the globs of
/// the file names it covers (matched against a file's name, not its path). The definitions are
/// ripgrep 13's for the types listed (`FileTypesTests` compares them with `rg --type-list`); ripgrep
/// knows more types than these.
public enum FileTypes {
  /// Every known type, sorted by name.
  public static let all: [(name: String, globs: [String])] = [
    ("asm", ["*.S", "*.asm", "*.s"]),
    ("bazel", ["*.BUILD", "*.bazel", "*.bazelrc", "*.bzl", "BUILD", "WORKSPACE"]),
    ("c", ["*.[chH]", "*.[chH].in", "*.cats"]),
    ("clojure", ["*.clj", "*.cljc", "*.cljs", "*.cljx"]),
    ("cmake", ["*.cmake", "CMakeLists.txt"]),
    ("config", ["*.cfg", "*.conf", "*.config", "*.ini"]),
    (
      "cpp",
      [
        "*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc", "*.cc.in", "*.hh",
        "*.hh.in", "*.inl",
      ]
    ),
    ("csharp", ["*.cs"]),
    ("css", ["*.css", "*.scss"]),
    ("csv", ["*.csv"]),
    ("d", ["*.d"]),
    ("dart", ["*.dart"]),
    ("diff", ["*.diff", "*.patch"]),
    ("docker", ["*Dockerfile*"]),
    ("elisp", ["*.el"]),
    ("elixir", ["*.eex", "*.ex", "*.exs"]),
    ("erlang", ["*.erl", "*.hrl"]),
    ("fish", ["*.fish"]),
    ("fsharp", ["*.fs", "*.fsi", "*.fsx"]),
    ("go", ["*.go"]),
    ("gradle", ["*.gradle"]),
    ("groovy", ["*.gradle", "*.groovy"]),
    ("haskell", ["*.c2hs", "*.cpphs", "*.hs", "*.hsc", "*.lhs"]),
    ("hs", ["*.hs", "*.lhs"]),
    ("html", ["*.ejs", "*.htm", "*.html"]),
    ("java", ["*.java", "*.jsp", "*.jspx", "*.properties"]),
    ("jinja", ["*.j2", "*.jinja", "*.jinja2"]),
    ("js", ["*.js", "*.jsx", "*.vue"]),
    ("json", ["*.json", "composer.lock"]),
    ("jsonl", ["*.jsonl"]),
    ("julia", ["*.jl"]),
    ("jupyter", ["*.ipynb", "*.jpynb"]),
    ("kotlin", ["*.kt", "*.kts"]),
    ("less", ["*.less"]),
    ("lisp", ["*.el", "*.jl", "*.lisp", "*.lsp", "*.sc", "*.scm"]),
    ("lock", ["*.lock", "package-lock.json"]),
    ("log", ["*.log"]),
    ("lua", ["*.lua"]),
    (
      "make",
      [
        "*.mak", "*.mk", "[Gg][Nn][Uu]makefile", "[Gg][Nn][Uu]makefile.am", "[Gg][Nn][Uu]makefile.in", "[Mm]akefile",
        "[Mm]akefile.am", "[Mm]akefile.in",
      ]
    ),
    ("markdown", ["*.markdown", "*.md", "*.mdown", "*.mkdn"]),
    ("matlab", ["*.m"]),
    ("md", ["*.markdown", "*.md", "*.mdown", "*.mkdn"]),
    ("meson", ["meson.build", "meson_options.txt"]),
    ("nim", ["*.nim", "*.nimble", "*.nimf", "*.nims"]),
    ("nix", ["*.nix"]),
    ("objc", ["*.h", "*.m"]),
    ("objcpp", ["*.h", "*.mm"]),
    ("ocaml", ["*.ml", "*.mli", "*.mll", "*.mly"]),
    ("perl", ["*.PL", "*.perl", "*.pl", "*.plh", "*.plx", "*.pm", "*.t"]),
    ("php", ["*.php", "*.php3", "*.php4", "*.php5", "*.phtml"]),
    ("protobuf", ["*.proto"]),
    ("py", ["*.py"]),
    ("r", ["*.R", "*.Rmd", "*.Rnw", "*.r"]),
    ("racket", ["*.rkt"]),
    ("rst", ["*.rst"]),
    ("ruby", ["*.gemspec", "*.rb", "*.rbw", ".irbrc", "Gemfile", "Rakefile", "config.ru"]),
    ("rust", ["*.rs"]),
    ("sass", ["*.sass", "*.scss"]),
    ("scala", ["*.sbt", "*.scala"]),
    (
      "sh",
      [
        "*.bash", "*.bashrc", "*.csh", "*.cshrc", "*.ksh", "*.kshrc", "*.sh", "*.tcsh", "*.zsh", ".bash_login",
        ".bash_logout", ".bash_profile", ".bashrc", ".cshrc", ".kshrc", ".login", ".logout", ".profile", ".tcshrc",
        ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "bash_login", "bash_logout", "bash_profile",
        "bashrc", "profile", "zlogin", "zlogout", "zprofile", "zshenv", "zshrc",
      ]
    ),
    ("sql", ["*.psql", "*.sql"]),
    ("swift", ["*.swift"]),
    ("tex", ["*.bib", "*.cls", "*.dtx", "*.ins", "*.ltx", "*.sty", "*.tex"]),
    ("toml", ["*.toml", "Cargo.lock"]),
    ("ts", ["*.ts", "*.tsx"]),
    ("txt", ["*.txt"]),
    ("vim", ["*.vim"]),
    ("xml", ["*.dtd", "*.rng", "*.sch", "*.xhtml", "*.xjb", "*.xml", "*.xml.dist", "*.xsd", "*.xsl", "*.xslt"]),
    ("yaml", ["*.yaml", "*.yml"]),
    ("zig", ["*.zig"]),
    (
      "zsh",
      [
        "*.zsh", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "zlogin", "zlogout", "zprofile", "zshenv",
        "zshrc",
      ]
    ),
  ]

  /// The globs of type `name` (`all`: every type's), or nil for a type not known.
  public static func globs(of name: String) -> [String]? {
    if name == "all" { return all.flatMap(\.globs) }
    return all.first { $0.name == name }?.globs
  }

  /// `rg --type-list`'s lines: `name: glob, glob, ...`.
  public static var listing: String {
    all.map { "\($0.name): \($0.globs.joined(separator: ", "))\n" }.joined()
  }

  /// Which files a search keeps by type: those matching one of the selected types (`-t`), when
  /// any is selected, and none matching a negated one (`-T`). Directories are never filtered.
  public struct Selection: Sendable {
    private var selected = IgnoreRules()
    private var negated = IgnoreRules()
    private var hasSelection = false

    /// The selection of `select` (`-t`) and `negate` (`-T`) type names; throws the first name
    /// that names no type.
    public init(select: [String], negate: [String]) throws(UnknownType) {
      for name in select {
        guard let globs = FileTypes.globs(of: name) else { throw UnknownType(name: name) }
        for glob in globs { selected.add(line: glob) }
        hasSelection = true
      }
      for name in negate {
        guard let globs = FileTypes.globs(of: name) else { throw UnknownType(name: name) }
        for glob in globs { negated.add(line: glob) }
      }
    }

    /// Whether neither `-t` nor `-T` was given.
    public var isEmpty: Bool { !hasSelection && negated.isEmpty }

    /// For a file named `name`: `.ignore` when a negated type covers it or a selection leaves it
    /// out, `.include` when a selected type covers it, nil when no type says anything (as
    /// ripgrep's `Types::matched`).
    func decision(forName name: ArraySlice<UInt8>) -> IgnoreRules.Decision? {
      if negated.decision(forPath: name, isDirectory: false) == .ignore { return .ignore }
      if selected.decision(forPath: name, isDirectory: false) == .ignore { return .include }
      return hasSelection ? .ignore : nil
    }
  }

  /// A type name that names no type.
  public struct UnknownType: Error, Sendable, CustomStringConvertible {
    public let name: String
    public var description: String {
      "unrecognized file type: \(name) (find --type-list lists the types)"
    }
  }
}
