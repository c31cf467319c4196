// What the client and its two platform adapters (CleaverPlatformFpc, CleaverPlatformDelphi)
// share: the JSON view the adapters hand out, and the errors.
unit CleaverTypes;

{$IFDEF FPC}{$mode delphi}{$ENDIF}

interface

uses
  SysUtils;

type
  TCleaverJsonKind = (jkNull, jkBoolean, jkNumber, jkString, jkArray, jkObject);

  /// A parsed JSON value. The adapter wraps its platform's parser (fpjson or System.JSON) behind
  /// this, so the client reads answers the same way on both compilers.
  ICleaverJson = interface
    ['{6B0E3C71-2A44-4D8B-9F51-0C7A3E5D9B12}']
    function Kind: TCleaverJsonKind;
    /// Elements of an array, members of an object, 0 otherwise.
    function Count: Integer;
    function Item(Index: Integer): ICleaverJson;
    function MemberName(Index: Integer): string;
    /// The member, or nil when the object has none of that name (or this is not an object).
    function Field(const Name: string): ICleaverJson;
    function Has(const Name: string): Boolean;
    /// The member as text / number / boolean; the default when absent or null.
    function Str(const Name: string; const Default: string = ''): string;
    function Num(const Name: string; Default: Double = 0): Double;
    function Bool(const Name: string; Default: Boolean = False): Boolean;
    function AsString: string;
    function AsNumber: Double;
    function AsBoolean: Boolean;
    /// The value serialised again (compact).
    function ToJson: string;
  end;

  /// An answer the service gave with an error status: Title is its `title` (`{title, status}`).
  ECleaverApiError = class(Exception)
  public
    Status: Integer;
    Title: string;
    Method: string;
    Path: string;
    Body: string;
    constructor CreateAnswer(AStatus: Integer; const ATitle, AMethod, APath, ABody: string);
  end;

  /// 401/403: the credentials or the token were refused.
  ECleaverAuthError = class(ECleaverApiError);

  /// No answer came: the connection could not be made or broke (after the retries allowed).
  ECleaverNetworkError = class(Exception);

  /// A webhook notification whose signature, timestamp or body does not verify.
  ECleaverWebhookError = class(Exception);

  ECleaverJsonError = class(Exception);

implementation

constructor ECleaverApiError.CreateAnswer(AStatus: Integer; const ATitle, AMethod, APath, ABody: string);
begin
  inherited CreateFmt('%s %s: %d %s', [AMethod, APath, AStatus, ATitle]);
  Status := AStatus;
  Title := ATitle;
  Method := AMethod;
  Path := APath;
  Body := ABody;
end;

end.
