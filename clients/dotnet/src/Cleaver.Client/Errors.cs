using System;

namespace Cleaver.Pos
{
    /// <summary>An answer the service gave with an error status; Title is its <c>title</c>.</summary>
    public class CleaverApiException : Exception
    {
        public int Status { get; private set; }
        public string Title { get; private set; }
        public string Method { get; private set; }
        public string Path { get; private set; }
        public string Body { get; private set; }

        public CleaverApiException(int status, string title, string method, string path, string body)
            : base(method + " " + path + ": " + status + " " + title)
        {
            Status = status;
            Title = title;
            Method = method;
            Path = path;
            Body = body;
        }
    }

    /// <summary>401/403: the credentials or the token were refused.</summary>
    public class CleaverAuthException : CleaverApiException
    {
        public CleaverAuthException(int status, string title, string method, string path, string body)
            : base(status, title, method, path, body) { }
    }

    /// <summary>No answer came: the connection could not be made or broke (after the retries allowed).</summary>
    public class CleaverNetworkException : Exception
    {
        /// <summary>False when the request may have reached the service before the connection broke.</summary>
        public bool NeverSent { get; private set; }

        public CleaverNetworkException(string message, bool neverSent, Exception inner) : base(message, inner)
        {
            NeverSent = neverSent;
        }
    }

    /// <summary>A webhook notification whose signature, timestamp or body does not verify.</summary>
    public class WebhookVerificationException : Exception
    {
        public WebhookVerificationException(string message) : base(message) { }
    }
}
