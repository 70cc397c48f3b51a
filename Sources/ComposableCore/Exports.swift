// Features write `import ComposableCore` and nothing else, exactly as TCA features write
// `import ComposableArchitecture`; that only works if the libraries TCA re-exports come along.
@_exported import CasePaths
@_exported import Clocks
@_exported import ConcurrencyExtras
@_exported import CustomDump
@_exported import Dependencies
@_exported import IdentifiedCollections
@_exported import IssueReporting
