// The Free Pascal adapter: HTTP with fphttpclient, JSON with fpjson, Base64 with the RTL's base64
// unit. CleaverPlatformDelphi.pas offers the same interface over System.Net.HttpClient and
// System.JSON; CleaverClient picks one of the two with {$IFDEF FPC}.
unit CleaverPlatformFpc;

{$mode delphi}

interface

uses
  SysUtils, Classes, CleaverTypes;

type
  TCleaverHttpAnswer = record
    Status: Integer;
    Body: string;
    RetryAfter: string;
  end;

/// One HTTP exchange. Any status is returned; a failed connection raises ECleaverNetworkError,
/// whose message says whether the request may have reached the server (NeverSent).
function HttpExchange(const Method, Url, Authorization, Body: string; TimeoutMs: Integer;
  out NeverSent: Boolean): TCleaverHttpAnswer;

function ParseJson(const Text: string): ICleaverJson;
/// A JSON string literal, quotes included.
function JsonQuote(const S: string): string;

function Base64Encode(const Bytes: TBytes): string;
function Base64Decode(const S: string): TBytes;

/// Bytes of a string as UTF-8, and back.
function Utf8Bytes(const S: string): TBytes;
function Utf8Text(const Bytes: TBytes): string;

function UnixNowSeconds: Int64;
/// The current UTC time as ISO 8601 with milliseconds (`2026-12-07T22:00:00.000Z`).
function UtcNowIso: string;
/// Milliseconds from a steady clock: for token expiry, never moved by a clock change.
function MonotonicMs: Int64;
procedure SleepMs(Ms: Integer);

implementation

uses
  fphttpclient, ssockets, URIParser, fpjson, jsonparser, base64, DateUtils;

type
  /// fphttpclient 3.2 sends `/v1/events:polling` as `/v1/events:polling/`: its URI parser stops
  /// looking for the last segment at a ':', and the request line then ends the path with '/'.
  /// The last segment is put back where the request line expects it.
  TCleaverHttpClient = class(TFPHTTPClient)
  protected
    procedure SendRequest(const AMethod: string; URI: TURI); override;
  end;

  TFpJson = class(TInterfacedObject, ICleaverJson)
  private
    FData: TJSONData;
    FOwned: TJSONData; // the root, freed with the wrapper that parsed it
    FRoot: ICleaverJson; // keeps the root alive while a child wrapper exists
  public
    constructor Create(AData: TJSONData; AOwned: TJSONData; const ARoot: ICleaverJson);
    destructor Destroy; override;
    function Kind: TCleaverJsonKind;
    function Count: Integer;
    function Item(Index: Integer): ICleaverJson;
    function MemberName(Index: Integer): string;
    function Field(const Name: string): ICleaverJson;
    function Has(const Name: string): Boolean;
    function Str(const Name: string; const Default: string = ''): string;
    function Num(const Name: string; Default: Double = 0): Double;
    function Bool(const Name: string; Default: Boolean = False): Boolean;
    function AsString: string;
    function AsNumber: Double;
    function AsBoolean: Boolean;
    function ToJson: string;
  end;

constructor TFpJson.Create(AData: TJSONData; AOwned: TJSONData; const ARoot: ICleaverJson);
begin
  inherited Create;
  FData := AData;
  FOwned := AOwned;
  FRoot := ARoot;
end;

destructor TFpJson.Destroy;
begin
  FOwned.Free;
  inherited Destroy;
end;

function TFpJson.Kind: TCleaverJsonKind;
begin
  case FData.JSONType of
    jtBoolean: Result := jkBoolean;
    jtNumber: Result := jkNumber;
    jtString: Result := jkString;
    jtArray: Result := jkArray;
    jtObject: Result := jkObject;
  else
    Result := jkNull;
  end;
end;

function TFpJson.Count: Integer;
begin
  if FData.JSONType in [jtArray, jtObject] then Result := FData.Count else Result := 0;
end;

function TFpJson.Item(Index: Integer): ICleaverJson;
var
  Root: ICleaverJson;
begin
  if FRoot <> nil then Root := FRoot else Root := Self;
  Result := TFpJson.Create(FData.Items[Index], nil, Root);
end;

function TFpJson.MemberName(Index: Integer): string;
begin
  if FData.JSONType = jtObject then Result := TJSONObject(FData).Names[Index] else Result := '';
end;

function TFpJson.Field(const Name: string): ICleaverJson;
var
  Found: TJSONData;
  Root: ICleaverJson;
begin
  Result := nil;
  if FData.JSONType <> jtObject then Exit;
  Found := TJSONObject(FData).Find(Name);
  if Found = nil then Exit;
  if FRoot <> nil then Root := FRoot else Root := Self;
  Result := TFpJson.Create(Found, nil, Root);
end;

function TFpJson.Has(const Name: string): Boolean;
begin
  Result := (FData.JSONType = jtObject) and (TJSONObject(FData).Find(Name) <> nil);
end;

function TFpJson.Str(const Name: string; const Default: string): string;
var
  F: ICleaverJson;
begin
  F := Field(Name);
  if (F = nil) or (F.Kind = jkNull) then Result := Default else Result := F.AsString;
end;

function TFpJson.Num(const Name: string; Default: Double): Double;
var
  F: ICleaverJson;
begin
  F := Field(Name);
  if (F = nil) or (F.Kind <> jkNumber) then Result := Default else Result := F.AsNumber;
end;

function TFpJson.Bool(const Name: string; Default: Boolean): Boolean;
var
  F: ICleaverJson;
begin
  F := Field(Name);
  if (F = nil) or (F.Kind <> jkBoolean) then Result := Default else Result := F.AsBoolean;
end;

function TFpJson.AsString: string;
var
  Format: TFormatSettings;
begin
  if FData.JSONType in [jtArray, jtObject] then Result := ToJson
  else if FData.JSONType = jtNull then Result := ''
  else if (FData.JSONType = jtNumber) and (TJSONNumber(FData).NumberType = ntFloat) then
  begin
    // fpjson writes floats as 2.5000000000000000E+000: written here as JSON would.
    Format := FormatSettings;
    Format.DecimalSeparator := '.';
    Result := FloatToStrF(FData.AsFloat, ffGeneral, 15, 0, Format);
  end
  else Result := FData.AsString;
end;

function TFpJson.AsNumber: Double;
begin
  Result := FData.AsFloat;
end;

function TFpJson.AsBoolean: Boolean;
begin
  Result := FData.AsBoolean;
end;

function TFpJson.ToJson: string;
begin
  Result := FData.FormatJSON([foSingleLineArray, foSingleLineObject, foSkipWhiteSpace], 0);
end;

function ParseJson(const Text: string): ICleaverJson;
var
  Data: TJSONData;
begin
  try
    Data := GetJSON(Text, True);
  except
    on E: Exception do
      raise ECleaverJsonError.Create('the answer is not JSON: ' + E.Message);
  end;
  Result := TFpJson.Create(Data, Data, nil);
end;

function JsonQuote(const S: string): string;
begin
  Result := '"' + StringToJSONString(S, False) + '"';
end;

function Base64Encode(const Bytes: TBytes): string;
var
  Raw: RawByteString;
begin
  SetLength(Raw, Length(Bytes));
  if Length(Bytes) > 0 then Move(Bytes[0], Raw[1], Length(Bytes));
  Result := EncodeStringBase64(Raw);
end;

function Base64Decode(const S: string): TBytes;
var
  Raw: RawByteString;
begin
  Result := nil;
  Raw := DecodeStringBase64(S, True);
  SetLength(Result, Length(Raw));
  if Length(Raw) > 0 then Move(Raw[1], Result[0], Length(Raw));
end;

function Utf8Bytes(const S: string): TBytes;
begin
  Result := nil;
  SetLength(Result, Length(S));
  if Length(S) > 0 then Move(S[1], Result[0], Length(S));
end;

function Utf8Text(const Bytes: TBytes): string;
begin
  SetLength(Result, Length(Bytes));
  if Length(Bytes) > 0 then Move(Bytes[0], Result[1], Length(Bytes));
end;

function UnixNowSeconds: Int64;
begin
  Result := DateTimeToUnix(LocalTimeToUniversal(Now));
end;

function UtcNowIso: string;
begin
  Result := FormatDateTime('yyyy"-"mm"-"dd"T"hh":"nn":"ss"."zzz"Z"', LocalTimeToUniversal(Now));
end;

function MonotonicMs: Int64;
begin
  Result := Int64(GetTickCount64);
end;

procedure SleepMs(Ms: Integer);
begin
  Sleep(Ms);
end;

procedure TCleaverHttpClient.SendRequest(const AMethod: string; URI: TURI);
var
  Slash: Integer;
begin
  if (URI.Document = '') and (URI.Path <> '') and (URI.Path[Length(URI.Path)] <> '/') then
  begin
    Slash := LastDelimiter('/', URI.Path);
    URI.Document := Copy(URI.Path, Slash + 1, MaxInt);
    URI.Path := Copy(URI.Path, 1, Slash);
  end;
  inherited SendRequest(AMethod, URI);
end;

function HttpExchange(const Method, Url, Authorization, Body: string; TimeoutMs: Integer;
  out NeverSent: Boolean): TCleaverHttpAnswer;
var
  Client: TCleaverHttpClient;
  Answer: TStringStream;
begin
  NeverSent := False;
  Client := TCleaverHttpClient.Create(nil);
  Answer := TStringStream.Create('');
  try
    Client.ConnectTimeout := TimeoutMs;
    Client.IOTimeout := TimeoutMs;
    Client.AddHeader('Accept', 'application/json');
    Client.AddHeader('User-Agent', 'cleaver-pascal-client/1.0');
    if Authorization <> '' then Client.AddHeader('Authorization', Authorization);
    if Body <> '' then
    begin
      Client.AddHeader('Content-Type', 'application/json');
      Client.RequestBody := TRawByteStringStream.Create(Body);
    end;
    try
      Client.HTTPMethod(Method, Url, Answer, []);
    except
      on E: ESocketError do
      begin
        // A host not found or a refused or timed-out connect: nothing of the request left.
        NeverSent := E.Code in [seHostNotFound, seCreationFailed, seConnectFailed, seConnectTimeOut];
        raise ECleaverNetworkError.CreateFmt('%s %s: %s', [Method, Url, E.Message]);
      end;
      on E: Exception do
        raise ECleaverNetworkError.CreateFmt('%s %s: %s', [Method, Url, E.Message]);
    end;
    Result.Status := Client.ResponseStatusCode;
    Result.Body := Answer.DataString;
    Result.RetryAfter := Client.GetHeader(Client.ResponseHeaders, 'Retry-After');
  finally
    Client.RequestBody.Free;
    Client.RequestBody := nil;
    Answer.Free;
    Client.Free;
  end;
end;

initialization
  // The client's strings carry UTF-8 (JSON, bodies, names like "Açougue"): one code page
  // throughout, whatever the locale of the machine that runs the POS.
  DefaultSystemCodePage := CP_UTF8;
end.
