// Verifies one webhook notification as a receiver gets it: the raw body bytes and the headers.
//   VerifyWebhook <client secret> <body file> <headers file>
// The headers file holds one `name: value` line per header. Prints `valid <schemes> <eventType>
// <orderId>` and exits 0, or `refused: <why>` and exits 1. A receiver does the same with the
// body and headers of the request in hand.
program VerifyWebhook;

{$IFDEF FPC}{$mode delphi}{$ENDIF}
{$IFNDEF FPC}{$APPTYPE CONSOLE}{$ENDIF}

uses
  SysUtils, Classes, CleaverTypes, CleaverWebhooks;

function ReadBytes(const Path: string): TBytes;
var
  Stream: TFileStream;
begin
  Stream := TFileStream.Create(Path, fmOpenRead or fmShareDenyWrite);
  try
    Result := nil;
    SetLength(Result, Stream.Size);
    if Stream.Size > 0 then Stream.ReadBuffer(Result[0], Stream.Size);
  finally
    Stream.Free;
  end;
end;

var
  Lines, Headers: TStringList;
  I, Colon: Integer;
  Verified: TVerifiedWebhook;
begin
  if ParamCount <> 3 then
  begin
    WriteLn('usage: VerifyWebhook <client secret> <body file> <headers file>');
    Halt(2);
  end;
  Lines := TStringList.Create;
  Headers := TStringList.Create;
  try
    Lines.LoadFromFile(ParamStr(3));
    for I := 0 to Lines.Count - 1 do
    begin
      Colon := Pos(':', Lines[I]);
      if Colon > 0 then
        Headers.Add(Trim(Copy(Lines[I], 1, Colon - 1)) + '=' + Trim(Copy(Lines[I], Colon + 1, MaxInt)));
    end;
    try
      Verified := CleaverWebhooks.VerifyWebhook(ReadBytes(ParamStr(2)), Headers, ParamStr(1));
      WriteLn('valid ', Verified.Schemes, ' ', Verified.Event.EventType, ' ', Verified.Event.OrderId);
    except
      on E: ECleaverWebhookError do
      begin
        WriteLn('refused: ', E.Message);
        ExitCode := 1;
      end;
    end;
  finally
    Headers.Free;
    Lines.Free;
  end;
end.
