"""The SSH transport of one session: the Textual app it runs, the driver that feeds it input and
takes its output, the screen buffer that diffs frames into bytes, and the host key and address."""
